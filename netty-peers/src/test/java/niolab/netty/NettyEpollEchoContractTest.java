package niolab.netty;

import niolab.server.EchoContractTest;
import niolab.server.testing.ServerProcess;

class NettyEpollEchoContractTest extends EchoContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("netty-epoll");
    }
}
