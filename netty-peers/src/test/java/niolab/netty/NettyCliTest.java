package niolab.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Netty peers behave like the lab servers from the command line. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class NettyCliTest {

    @ParameterizedTest
    @ValueSource(strings = {"netty-nio", "netty-epoll"})
    void readyLineAndSigtermStopGracefullyWithCounters(String transport) throws Exception {
        try (ServerProcess p = ServerProcess.start(transport)) {
            assertThat(p.label()).isEqualTo(transport + ", echo");
            byte[] payload = Echo.random(100, 1);
            assertThat(Echo.roundTrip(p.address(), payload, 100, 1)).isEqualTo(payload);
            assertThat(p.terminate(20)).isZero();
            assertThat(p.output()).contains("counters: accepts=1 ").contains("bytes_in=100 bytes_out=100");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty-nio", "netty-epoll"})
    void portInUseIsOneLineAndExitOne(String transport) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            try (ServerProcess p = ServerProcess.launch(List.of(), List.of(transport, "--port", Integer.toString(port)))) {
                assertThat(p.awaitExit(30)).isEqualTo(1);
                assertThat(p.output().trim()).isEqualTo("error: 127.0.0.1:" + port + " is already in use");
            }
        }
    }

    @Test
    void missingTransportGivesUsageAndExitTwo() throws Exception {
        try (ServerProcess p = ServerProcess.launch(List.of(), List.of())) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output()).contains("missing transport: netty-nio or netty-epoll").contains("Usage:");
        }
    }
}
