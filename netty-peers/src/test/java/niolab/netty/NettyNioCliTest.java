package niolab.netty;

import niolab.server.ServerCliTest;

class NettyNioCliTest extends ServerCliTest {
    @Override
    protected String arch() {
        return "netty-nio";
    }
}
