package niolab.netty;

import niolab.server.HttpContractTest;
import niolab.server.testing.ServerProcess;

class NettyNioHttpContractTest extends HttpContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("netty-nio", "--protocol", "http");
    }
}
