package niolab.netty;

import niolab.server.HttpContractTest;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class NettyNioHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-nio");
    }
}
