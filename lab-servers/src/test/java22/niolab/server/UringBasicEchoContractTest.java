package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class UringBasicEchoContractTest extends UringEchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring", "--uring-mode", "basic");
    }
}
