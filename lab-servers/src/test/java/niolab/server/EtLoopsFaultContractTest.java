package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtLoopsFaultContractTest extends FaultContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et", "--loops", "2");
    }
}
