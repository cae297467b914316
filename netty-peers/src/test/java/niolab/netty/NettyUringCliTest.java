package niolab.netty;

import niolab.server.ServerCliTest;
import org.junit.jupiter.api.BeforeAll;

class NettyUringCliTest extends ServerCliTest {
    @BeforeAll
    static void ioUringRunsHere() {
        TransportAssumptions.assumeRunsHere(Transport.URING);
    }

    @Override
    protected String arch() {
        return "netty-uring";
    }
}
