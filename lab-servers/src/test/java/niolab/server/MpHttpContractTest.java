package niolab.server;

import niolab.server.testing.ServerUnderTest;

class MpHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("mp", "--workers", "2");
    }
}
