package niolab.server;

import java.util.List;

class BioEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("bio");
    }
}
