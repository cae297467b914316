package niolab.netty;

import java.util.List;
import niolab.server.HttpContractTest;
import niolab.server.testing.ServerProcess;

class NettyUringHttpContractTest extends HttpContractTest {
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
