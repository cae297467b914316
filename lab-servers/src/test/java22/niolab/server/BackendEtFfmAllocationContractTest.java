package niolab.server;

import niolab.server.testing.ServerUnderTest;

class BackendEtFfmAllocationContractTest extends BackendAllocationContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et", "--binding", "ffm");
    }
}
