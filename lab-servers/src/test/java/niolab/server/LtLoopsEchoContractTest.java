package niolab.server;

import java.util.List;

class LtLoopsEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("lt", "--loops", "2");
    }
}
