package niolab.netty;

import niolab.server.EchoContractTest;
import niolab.server.testing.ServerProcess;

class NettyNioEchoContractTest extends EchoContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("netty-nio");
    }
}
