package niolab.server;

import niolab.server.testing.ServerUnderTest;

class VtFaultContractTest extends FaultContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("vt");
    }
}
