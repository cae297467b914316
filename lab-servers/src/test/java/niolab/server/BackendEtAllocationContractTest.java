package niolab.server;

import niolab.server.testing.ServerUnderTest;

class BackendEtAllocationContractTest extends BackendAllocationContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et");
    }
}
