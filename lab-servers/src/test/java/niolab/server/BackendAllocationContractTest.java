package niolab.server;

import static niolab.server.testing.Http.ascii;
import static niolab.server.testing.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.RedisServer;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;

/**
 * The loop posture allocates nothing per {@code /healthz} on the loop thread, once warm: the
 * Redis replies are parsed where they lie and the values copied into the response. Measured as
 * {@link AllocationContractTest} measures the other requests, with a real Redis behind.
 */
public abstract class BackendAllocationContractTest extends ServerContractTest {
    /** The test runs its loop in this JVM: no server process to share. */
    @Override
    protected ServerProcess startSharedServer() {
        return null;
    }

    @Test
    void healthzInTheLoopPostureAllocatesNothingOnTheLoopThread() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            List<String> args = serverUnderTest().commandLine(List.of("--protocol", "http", "--backend", redis.uri(), "--backend-mode", "loop"));
            assertThat(AllocationContractTest.allocatedByLoop(args, BackendAllocationContractTest::healthzRequests,
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
            InputStream in = AllocationContractTest.buffered(s);
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
