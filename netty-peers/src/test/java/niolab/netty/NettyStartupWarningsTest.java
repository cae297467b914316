package niolab.netty;

import java.util.stream.Stream;
import niolab.server.StartupWarningsTest;

class NettyStartupWarningsTest extends StartupWarningsTest {
    @Override
    protected Stream<String> servers() {
        return Stream.of("netty-nio", "netty-epoll");
    }
}
