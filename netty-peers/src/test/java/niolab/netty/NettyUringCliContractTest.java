package niolab.netty;

import niolab.server.CliContractTest;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class NettyUringCliContractTest extends CliContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        TransportAssumptions.assumeRunsHere(Transport.URING);
        return ServerUnderTest.of("netty-uring");
    }
}
