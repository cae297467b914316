package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class MpUringEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("mp", "--workers", "2", "--worker-arch", "uring");
    }
}
