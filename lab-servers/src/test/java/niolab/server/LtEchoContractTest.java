package niolab.server;

import niolab.server.testing.ServerUnderTest;

class LtEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("lt");
    }
}
