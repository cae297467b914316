package niolab.netty;

import niolab.server.HttpContractTest;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class NettyUringHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        TransportAssumptions.assumeRunsHere(Transport.URING);
        return ServerUnderTest.of("netty-uring");
    }
}
