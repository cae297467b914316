package niolab.server;

import java.util.List;

class LtEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("lt");
    }
}
