package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtFfmEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et", "--binding", "ffm");
    }
}
