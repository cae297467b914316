package niolab.server;

import java.util.List;

class MpVtEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("mp", "--workers", "2", "--worker-arch", "vt");
    }
}
