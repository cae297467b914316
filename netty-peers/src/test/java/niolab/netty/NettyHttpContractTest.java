package niolab.netty;

import niolab.server.HttpContractTest;
import niolab.server.testing.ServerProcess;

/** Netty's own HttpServerCodec keeps the lab's HTTP contract (on the default transport). */
class NettyHttpContractTest extends HttpContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("netty-http");
    }
}
