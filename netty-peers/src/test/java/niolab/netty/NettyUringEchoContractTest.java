package niolab.netty;

import niolab.server.EchoContractTest;
import niolab.server.testing.ServerProcess;

class NettyUringEchoContractTest extends EchoContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        TransportAssumptions.assumeRunsHere(Transport.URING);
        return ServerProcess.start("netty-uring");
    }
}
