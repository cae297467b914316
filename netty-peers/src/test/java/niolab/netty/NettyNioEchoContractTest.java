package niolab.netty;

import java.util.List;
import niolab.server.EchoContractTest;

class NettyNioEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("netty-nio");
    }
}
