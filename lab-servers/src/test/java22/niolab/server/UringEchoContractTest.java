package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import niolab.server.testing.Echo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The echo contract for io_uring, failing fast when a recv is never re-armed (lab 7's
 * {@code uring-more} region): such a server echoes a connection's first completion and then
 * nothing, and every case of the contract would wait out its 20 s socket timeouts. One probe
 * before the cases, bounded by {@link #STALL_MS} without a byte where a correct server answers
 * in milliseconds, and every case fails at once with what it saw.
 */
abstract class UringEchoContractTest extends EchoContractTest {
    /** The longest the probe waits for the next byte of its echo. */
    static final int STALL_MS = 3_000;

    /** What the probe saw when the echo stalled; null when it came back whole. */
    private String stalled;

    /** Two small messages (a basic recv completes once), then 1 MiB at once (a multishot recv is cancelled under backpressure). */
    @BeforeAll
    final void probeThatEveryRecvIsArmedAgain() throws Exception {
        try (Socket s = Echo.connect(address)) {
            s.setSoTimeout(STALL_MS);
            String step = "the first 1-byte message";
            try {
                for (int i = 0; i < 2; i++) {
                    s.getOutputStream().write(i);
                    assertThat(Echo.readExactly(s.getInputStream(), 1)).containsExactly((byte) i);
                    step = "the second 1-byte message on the same connection";
                }
                step = "1 MiB written at once on the same connection";
                byte[] payload = Echo.random(1 << 20, 31);
                CompletableFuture<Void> writer = Echo.writeAsync(s, payload, 1 << 20, 31);
                assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
                Echo.await(writer);
            } catch (SocketTimeoutException e) {
                stalled = "the echo of " + step + " stalled: no byte for " + STALL_MS + " ms (is the recv armed again after its last completion?)";
            }
        }
    }

    @BeforeEach
    final void failFastOnAStalledEcho() {
        if (stalled != null) fail(stalled);
    }
}
