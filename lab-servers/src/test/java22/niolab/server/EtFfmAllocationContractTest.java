package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtFfmAllocationContractTest extends AllocationContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et", "--binding", "ffm");
    }
}
