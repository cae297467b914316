package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et");
    }
}
