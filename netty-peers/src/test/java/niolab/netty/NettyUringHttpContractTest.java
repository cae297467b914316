package niolab.netty;

import niolab.server.HttpContractTest;
import niolab.server.testing.ServerProcess;

class NettyUringHttpContractTest extends HttpContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        TransportAssumptions.assumeRunsHere(Transport.URING);
        return ServerProcess.start("netty-uring", "--protocol", "http");
    }
}
