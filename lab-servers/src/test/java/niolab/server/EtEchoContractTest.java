package niolab.server;

import java.util.List;

class EtEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et");
    }
}
