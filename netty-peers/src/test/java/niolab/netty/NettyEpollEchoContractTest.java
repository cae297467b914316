package niolab.netty;

import niolab.server.EchoContractTest;
import niolab.server.testing.ServerUnderTest;

class NettyEpollEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-epoll");
    }
}
