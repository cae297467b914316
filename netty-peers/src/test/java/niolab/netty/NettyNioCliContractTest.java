package niolab.netty;

import niolab.server.CliContractTest;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class NettyNioCliContractTest extends CliContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-nio");
    }
}
