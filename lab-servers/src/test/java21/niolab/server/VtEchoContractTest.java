package niolab.server;

import java.util.List;

class VtEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("vt");
    }
}
