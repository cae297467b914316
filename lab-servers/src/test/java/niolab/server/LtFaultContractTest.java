package niolab.server;

import niolab.server.testing.ServerUnderTest;

class LtFaultContractTest extends FaultContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("lt");
    }
}
