package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtFfmHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et", "--binding", "ffm");
    }
}
