package niolab.server;

import niolab.server.testing.ServerUnderTest;

class BioHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("bio");
    }
}
