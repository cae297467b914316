package niolab.server;

import niolab.server.testing.ServerUnderTest;

class MpEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("mp", "--workers", "2");
    }
}
