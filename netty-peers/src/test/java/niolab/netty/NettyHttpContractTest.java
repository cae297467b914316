package niolab.netty;

import niolab.server.HttpContractTest;
import niolab.server.testing.ServerUnderTest;

/**
 * Netty's own HttpServerCodec keeps the lab's HTTP contract (on the default transport), except
 * the lingering close: after a closing answer {@code HttpServerKeepAliveHandler} closes at once,
 * and no option of Netty's makes it linger (SO_LINGER only changes how a close waits for unsent
 * output; ALLOW_HALF_CLOSURE concerns the input side). Measured by the cases below, which print
 * what the client got: the whole answer, then a reset where end of stream should be, from heads
 * of 300 KB on (README, exp-http).
 */
class NettyHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("netty-http").lingers(false);
    }
}
