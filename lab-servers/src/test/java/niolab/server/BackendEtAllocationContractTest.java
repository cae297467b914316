package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class BackendEtAllocationContractTest extends BackendAllocationContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et");
    }
}
