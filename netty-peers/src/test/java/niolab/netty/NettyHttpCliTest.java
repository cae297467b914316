package niolab.netty;

import static niolab.server.testing.Http.ascii;
import static niolab.server.testing.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import niolab.server.ServerCliTest;
import niolab.server.testing.Http;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;

/** netty-http speaks only HTTP, and says which transport it picked. */
class NettyHttpCliTest extends ServerCliTest {
    @Override
    protected String arch() {
        return "netty-http";
    }

    @Override
    protected String expectedLabel() {
        Transport best = Transport.EPOLL.unavailabilityCause() == null ? Transport.EPOLL : Transport.NIO;
        return "netty-http: " + best + ", http";
    }

    @Override
    protected String exchange(Socket s) throws IOException {
        byte[] request = ascii(get("/ping"));
        s.getOutputStream().write(request);
        assertThat(Http.read(s.getInputStream()).status()).isEqualTo(200);
        return "bytes_in=" + request.length + " ";
    }

    @Test
    void echoProtocolIsRefusedWithExitTwo() throws Exception {
        try (ServerProcess p = launch("--protocol", "echo")) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output()).contains("netty-http speaks only http").contains("Usage:").doesNotContain("Exception");
        }
    }

    @Test
    void transportIsChosenByName() throws Exception {
        try (ServerProcess p = ServerProcess.start("netty-http", "--transport", "NIO")) {
            assertThat(p.label()).isEqualTo("netty-http: nio, http");
        }
        try (ServerProcess p = launch("--transport", "dpdk")) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output()).contains("'dpdk' is not a transport (nio, epoll or uring)").doesNotContain("Exception");
        }
    }
}
