package niolab.server;

import java.util.List;

class MpUringEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return UringArch.of("mp", "--workers", "2", "--worker-arch", "uring");
    }
}
