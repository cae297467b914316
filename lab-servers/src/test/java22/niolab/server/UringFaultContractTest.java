package niolab.server;

import niolab.server.testing.ServerUnderTest;

class UringFaultContractTest extends FaultContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring");
    }
}
