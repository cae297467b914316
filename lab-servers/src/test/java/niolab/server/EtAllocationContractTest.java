package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtAllocationContractTest extends AllocationContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et");
    }
}
