package niolab.server;

import niolab.server.testing.ServerUnderTest;

class LtHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("lt");
    }
}
