package niolab.netty;

import niolab.server.EchoContractTest;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class NettyUringEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        TransportAssumptions.assumeRunsHere(Transport.URING);
        return ServerUnderTest.of("netty-uring");
    }
}
