package niolab.server;

import niolab.server.testing.ServerUnderTest;

class MpUringEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("mp", "--workers", "2", "--worker-arch", "uring");
    }
}
