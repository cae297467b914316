package niolab.server;

import static niolab.server.testing.Symptoms.echoedAfterBackingUp;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.Proc;
import niolab.server.testing.ServerProcess;
import niolab.testkit.Capability;
import niolab.uring.UringSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A multishot recv under backpressure on a kernel without the recv byte limit (before 6.17; a
 * newer one is told to act so): the recv is cancelled once the connection holds its
 * {@code --buffer-size}, and cancelled again in the next episode on the same connection, so the
 * connection never takes the shared pool of buffers. A cancel that stays marked after the recv
 * it ended (c.recvCancelled) is never sent again: the second episode then drains the pool.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class UringBackpressureTest {
    /** More than the loopback socket buffers of both ends hold: the echo backs up into the server. */
    private static final long BACKED_UP = 32L << 20;

    @Test
    void everyBackpressureEpisodeOfAConnectionCancelsItsRecvSoThePoolNeverRunsDry() throws Exception {
        Capability.IO_URING.assume();
        // 1 KiB buffers (a quarter of --buffer-size), 2048 of them: one connection that receives on
        // while its echo backs up takes all of them in a few MiB.
        try (ServerProcess p = ServerProcess.startWithJvmOptions(List.of("-D" + UringSupport.NO_RECV_BYTE_LIMIT + "=true"),
                "uring", "--uring-mode", "multishot", "--buffer-size", "4096");
             Socket s = Echo.connect(p.address())) {
            for (int episode = 1; episode <= 2; episode++) {
                assertThat(echoedAfterBackingUp(s, BACKED_UP)).as("bytes echoed in backpressure episode %d on one connection", episode)
                        .isEqualTo(BACKED_UP);
            }
            s.close();
            assertThat(p.terminate(20)).isZero();
            assertThat(Proc.counter(p, "no_buffers"))
                    .as("recvs that found the pool empty: a connection held more than its --buffer-size, its recv not cancelled")
                    .isZero();
        }
    }
}
