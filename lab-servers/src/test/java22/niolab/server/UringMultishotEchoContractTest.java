package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class UringMultishotEchoContractTest extends UringEchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring", "--uring-mode", "multishot");
    }
}
