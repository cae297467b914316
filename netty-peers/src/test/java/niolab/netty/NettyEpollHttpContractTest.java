package niolab.netty;

import java.util.List;
import niolab.server.HttpContractTest;

class NettyEpollHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("netty-epoll");
    }
}
