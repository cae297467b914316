package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class MpVtEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("mp", "--workers", "2", "--worker-arch", "vt");
    }
}
