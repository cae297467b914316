package niolab.netty;

import niolab.server.HttpContractTest;
import niolab.server.testing.ServerUnderTest;

class NettyEpollHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-epoll");
    }
}
