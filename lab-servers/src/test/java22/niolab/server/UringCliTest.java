package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.ServerProcess;
import niolab.testkit.Extended;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code lab-server uring} from the command line: the ready line names the mode, errors are one line. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class UringCliTest {

    @ParameterizedTest
    @Extended
    @ValueSource(strings = {"basic", "multishot", "bufring", "sqpoll"})
    void readyLineNamesTheModeAndTheCountersShowTheRing(String mode) throws Exception {
        try (ServerProcess p = UringArch.of("uring", "--uring-mode", mode).start(List.of())) {
            assertThat(p.label()).isEqualTo("uring " + mode + ", echo");
            byte[] payload = Echo.random(100, 1);
            assertThat(Echo.roundTrip(p.address(), payload, 100, 1)).isEqualTo(payload);
            assertThat(p.terminate(20)).isZero();
            assertThat(p.output()).contains("counters: accepts=1 ").contains("bytes_in=100 bytes_out=100")
                    .containsPattern(" enters=[1-9]").containsPattern(" submissions=[1-9]").contains(" no_buffers=0");
        }
    }

    @Test
    void theDefaultModeIsTheBestThisKernelSupports() throws Exception {
        try (ServerProcess p = UringArch.of("uring").start(List.of())) {
            assertThat(p.label()).as("Linux 6.17+ offers all of it").matches("uring (bufring|multishot|basic), echo");
        }
    }

    @Test
    void anUnknownModeGivesUsageAndExitTwo() throws Exception {
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of("uring", "--uring-mode", "turbo"));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("'turbo' is not a uring mode (basic, multishot, bufring, sqpoll)").doesNotContain("Exception");
    }

    @Test
    void portInUseIsOneLineAndExitOne() throws Exception {
        niolab.testkit.Capability.IO_URING.assume();
        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            try (ServerProcess p = ServerProcess.launch(List.of(), List.of("uring", "--port", Integer.toString(port)))) {
                assertThat(p.awaitExit(30)).isEqualTo(1);
                assertThat(p.output().trim()).isEqualTo("error: 127.0.0.1:" + port + " is already in use");
            }
        }
    }

    @Test
    @Extended
    void mpHandsTheUringModeToItsWorkers() throws Exception {
        try (ServerProcess p = UringArch.of("mp", "--workers", "1", "--worker-arch", "uring", "--uring-mode", "basic").start(List.of())) {
            assertThat(p.label()).isEqualTo("mp: 1 x uring basic, echo");
            assertThat(p.terminate(30)).isZero();
        }
    }

    @Test
    @Extended
    void mpWorkersServeEchoOnAnSqPollRing() throws Exception {
        try (ServerProcess p = UringArch.of("mp", "--workers", "1", "--worker-arch", "uring", "--uring-mode", "sqpoll").start(List.of())) {
            assertThat(p.label()).isEqualTo("mp: 1 x uring sqpoll, echo");
            byte[] payload = Echo.random(100, 3);
            assertThat(Echo.roundTrip(p.address(), payload, 100, 1)).isEqualTo(payload);
            assertThat(p.terminate(30)).isZero();
            assertThat(p.output()).containsPattern("(?m)^counters: accepts=1 .* bytes_in=100 bytes_out=100");
        }
    }

    @Test
    void mpRunsUringWorkers() throws Exception {
        try (ServerProcess p = UringArch.of("mp", "--workers", "2", "--worker-arch", "uring").start(List.of())) {
            assertThat(p.label()).matches("mp: 2 x uring \\w+, echo");
            byte[] payload = Echo.random(100, 2);
            assertThat(Echo.roundTrip(p.address(), payload, 100, 2)).isEqualTo(payload);
            assertThat(p.terminate(30)).isZero();
            assertThat(p.output()).containsPattern("(?m)^counters: accepts=1 .* enters=[1-9]");
        }
    }
}
