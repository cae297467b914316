package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtFfmFaultContractTest extends FaultContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et", "--binding", "ffm");
    }
}
