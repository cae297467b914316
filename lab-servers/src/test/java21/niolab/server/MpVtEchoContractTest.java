package niolab.server;

import niolab.server.testing.ServerUnderTest;

class MpVtEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("mp", "--workers", "2", "--worker-arch", "vt");
    }
}
