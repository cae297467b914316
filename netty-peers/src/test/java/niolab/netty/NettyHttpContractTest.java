package niolab.netty;

import java.util.List;
import niolab.server.HttpContractTest;

/** Netty's own HttpServerCodec keeps the lab's HTTP contract (on the default transport). */
class NettyHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("netty-http");
    }
}
