package niolab.server;

import static niolab.server.testing.Http.ascii;
import static niolab.server.testing.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.ServerProcess;
import niolab.server.testing.ServerUnderTest;
import org.junit.jupiter.api.Test;

/**
 * vt's posture: Jedis on each connection's own virtual thread, from a pool of connections they
 * share. Besides the contract: the backend rows of the counters, summed over the connections'
 * threads, and the default posture when {@code --backend-mode} is left out.
 */
class BackendVtThreadContractTest extends BackendContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("vt", "--backend-mode", "thread");
    }

    @Test
    void aRedisThatIsDownAtStartIsOneLineThen503AndTheConnectionsCountsAreSummed() throws Exception {
        int nothing;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            nothing = s.getLocalPort();
        }
        try (ServerProcess p = ServerProcess.start("vt", "--protocol", "http", "--backend", "redis://127.0.0.1:" + nothing)) {
            assertThat(p.label()).as("the default posture on vt").isEqualTo("vt, http, backend thread");
            for (int i = 0; i < 5; i++) {
                try (Socket s = Echo.connect(p.address())) {
                    s.getOutputStream().write(ascii(get("/healthz") + get("/ping")));
                    assertThat(Http.read(s.getInputStream()).status()).isEqualTo(503);
                    assertThat(Http.read(s.getInputStream()).status()).isEqualTo(200);
                }
            }
            assertThat(p.output()).containsOnlyOnce("redis 127.0.0.1:" + nothing + " failed (");
            assertThat(p.terminate(20)).isZero();
            assertThat(p.output()).contains("accepts=5").contains("backend_failures=5");
        }
    }

    @Test
    void theCountersCountEveryCallAndTwoRoundTripsEach() throws Exception {
        try (ServerProcess p = ServerProcess.start("vt", "--protocol", "http", "--backend", redis.uri());
             Socket s = Echo.connect(p.address())) {
            for (int i = 0; i < 7; i++) {
                s.getOutputStream().write(ascii(get("/healthz")));
                assertSeeded(Http.read(s.getInputStream()));
            }
            s.close();
            assertThat(p.terminate(20)).isZero();
            assertThat(p.output()).contains("backend_calls=7 backend_round_trips=14 backend_failures=0");
        }
    }
}
