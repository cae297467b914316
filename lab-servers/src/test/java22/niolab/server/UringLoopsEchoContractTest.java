package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class UringLoopsEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring", "--loops", "2");
    }
}
