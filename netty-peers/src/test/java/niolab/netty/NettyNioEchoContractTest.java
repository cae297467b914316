package niolab.netty;

import niolab.server.EchoContractTest;
import niolab.server.testing.ServerUnderTest;

class NettyNioEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-nio");
    }
}
