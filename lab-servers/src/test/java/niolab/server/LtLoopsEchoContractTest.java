package niolab.server;

import niolab.server.testing.ServerUnderTest;

class LtLoopsEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("lt", "--loops", "2");
    }
}
