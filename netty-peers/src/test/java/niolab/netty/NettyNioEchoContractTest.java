package niolab.netty;

import niolab.server.EchoContractTest;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class NettyNioEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-nio");
    }
}
