package niolab.netty;

import java.util.List;
import niolab.server.EchoContractTest;
import niolab.server.testing.ServerProcess;

class NettyUringEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("netty-uring");
    }

    @Override
    protected ServerProcess startServer() throws Exception {
        TransportAssumptions.assumeRunsHere(Transport.URING);
        return super.startServer();
    }
}
