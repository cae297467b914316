package niolab.server;

import static niolab.server.testing.Http.ascii;
import static niolab.server.testing.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The loop posture allocates nothing per {@code /healthz} on the loop thread, once warm: the
 * Redis replies are parsed where they lie and the values copied into the response. Measured as
 * {@link AllocationContractTest} measures the other requests, with a real Redis behind.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class BackendAllocationTest {
    /** The architecture, e.g. {@code lt}. */
    protected abstract String arch();

    /** Options after the architecture that pick its variant, e.g. {@code --binding ffm}; none by default. */
    protected List<String> variant() {
        return List.of();
    }

    @Test
    void healthzInTheLoopPostureAllocatesNothingOnTheLoopThread() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            List<String> args = new ArrayList<>(List.of(arch()));
            args.addAll(variant());
            args.addAll(List.of("--protocol", "http", "--backend", redis.uri(), "--backend-mode", "loop"));
            assertThat(AllocationContractTest.allocatedByLoop(args, BackendAllocationTest::healthzRequests,
                    AllocationContractTest.SLACK_BYTES))
                    .as("bytes allocated by the loop thread").isLessThan(AllocationContractTest.SLACK_BYTES);
        }
    }

    /** {@code requests} /healthz round trips on one connection, then as many requests in pipelined batches of 16, half of them /healthz. */
    private static void healthzRequests(InetSocketAddress address, int requests) throws Exception {
        byte[] one = ascii(get("/healthz"));
        byte[] batch = ascii((get("/healthz") + get("/ping")).repeat(8));
        try (Socket s = Echo.connect(address)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (int i = 0; i < requests; i++) {
                out.write(one);
                assertThat(Http.read(in).status()).isEqualTo(200);
            }
            for (int i = 0; i < requests; i += 16) {
                out.write(batch);
                for (int j = 0; j < 16; j++) assertThat(Http.read(in).status()).isEqualTo(200);
            }
        }
    }
}
