package niolab.server;

import niolab.server.testing.ServerUnderTest;

class VtHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("vt");
    }
}
