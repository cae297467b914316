package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtFaultContractTest extends FaultContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et");
    }
}
