package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class EtLoopsHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et", "--loops", "2");
    }
}
