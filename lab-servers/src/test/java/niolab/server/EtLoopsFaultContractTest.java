package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class EtLoopsFaultContractTest extends FaultContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et", "--loops", "2");
    }
}
