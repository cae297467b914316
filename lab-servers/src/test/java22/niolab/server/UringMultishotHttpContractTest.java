package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class UringMultishotHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring", "--uring-mode", "multishot");
    }
}
