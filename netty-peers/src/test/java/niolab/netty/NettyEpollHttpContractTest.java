package niolab.netty;

import niolab.server.HttpContractTest;
import niolab.server.testing.ServerProcess;

class NettyEpollHttpContractTest extends HttpContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("netty-epoll", "--protocol", "http");
    }
}
