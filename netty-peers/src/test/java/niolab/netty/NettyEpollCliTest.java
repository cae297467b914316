package niolab.netty;

import niolab.server.ServerCliTest;

class NettyEpollCliTest extends ServerCliTest {
    @Override
    protected String arch() {
        return "netty-epoll";
    }
}
