package niolab.netty;

import java.util.List;
import niolab.server.EchoContractTest;

class NettyEpollEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("netty-epoll");
    }
}
