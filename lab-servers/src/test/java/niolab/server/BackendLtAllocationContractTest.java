package niolab.server;

import niolab.server.testing.ServerUnderTest;

class BackendLtAllocationContractTest extends BackendAllocationContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("lt");
    }
}
