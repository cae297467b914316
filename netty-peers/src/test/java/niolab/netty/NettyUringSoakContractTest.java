package niolab.netty;

import niolab.server.SoakContractTest;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

/** netty-uring under the echo soak: Netty prints none of the lab's counters and has no {@code --sndbuf}. */
@Extended
class NettyUringSoakContractTest extends SoakContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        TransportAssumptions.assumeRunsHere(Transport.URING);
        return ServerUnderTest.of("netty-uring");
    }

    @Override
    protected boolean hasSndbuf() {
        return false;
    }

    @Override
    protected boolean hasCounters() {
        return false;
    }
}
