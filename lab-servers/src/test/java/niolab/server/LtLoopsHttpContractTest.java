package niolab.server;

import niolab.server.testing.ServerUnderTest;

class LtLoopsHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("lt", "--loops", "2");
    }
}
