package niolab.netty;

import niolab.server.SoakContractTest;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

/** netty-nio under the echo soak: Netty prints none of the lab's counters and has no {@code --sndbuf}. */
@Extended
class NettyNioSoakContractTest extends SoakContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-nio");
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
