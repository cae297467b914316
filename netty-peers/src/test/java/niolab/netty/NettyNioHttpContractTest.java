package niolab.netty;

import java.util.List;
import niolab.server.HttpContractTest;

class NettyNioHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("netty-nio");
    }
}
