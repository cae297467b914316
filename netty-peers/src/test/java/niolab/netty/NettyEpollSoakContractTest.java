package niolab.netty;

import niolab.server.SoakContractTest;
import niolab.server.testing.ServerUnderTest;

/** netty-epoll under the echo soak: Netty prints none of the lab's counters and has no {@code --sndbuf}. */
class NettyEpollSoakContractTest extends SoakContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-epoll");
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
