package niolab.netty;

import java.util.stream.Stream;
import niolab.server.StartupWarningsTest;

/** netty-http loads the same native library as netty-epoll, but speaks no echo: not listed. */
class NettyStartupWarningsTest extends StartupWarningsTest {
    @Override
    protected Stream<String> servers() {
        return Transport.URING.unavailabilityCause() == null
                ? Stream.of("netty-nio", "netty-epoll", "netty-uring")
                : Stream.of("netty-nio", "netty-epoll");
    }
}
