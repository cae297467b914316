package niolab.server;

import java.util.List;

class MpEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("mp", "--workers", "2");
    }
}
