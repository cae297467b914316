package niolab.netty;

import niolab.server.CliContractTest;
import niolab.server.testing.ServerUnderTest;

class NettyEpollCliContractTest extends CliContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-epoll");
    }
}
