package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.ServerProcess;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code lab-server vt} from the command line, on whichever JDK runs the build: on JDK 17 one
 * line and exit 2; on 21 and newer the same ready line, errors and graceful stop as the others
 * (the contract suites, compiled only there, check the rest).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class VtCommandTest {
    private static final int JDK = Runtime.version().feature();

    @Test
    void onAJdkWithoutVirtualThreadsVtIsOneLineAndExitTwo() throws Exception {
        Capability.JDK_21.assumeMissing("this JVM has virtual threads");
        for (List<String> args : List.of(List.of("vt", "--port", "0"), List.of("mp", "--worker-arch", "vt", "--port", "0"))) {
            try (ServerProcess p = ServerProcess.launch(List.of(), args)) {
                assertThat(p.awaitExit(30)).as(p.output()).isEqualTo(2);
                assertThat(p.output().trim()).isEqualTo("error: vt needs JDK 21 or newer (this JVM is " + JDK + ")");
            }
        }
    }

    @Test
    void loopsIsOneLineAndExitTwo() throws Exception {
        Capability.JDK_21.assume();
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of("vt", "--loops", "2", "--port", "0"));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output().trim())
                .isEqualTo("error: --loops acts in lt, et and uring, not in vt");
    }

    @Test
    void readyLineThenSigtermClosesOpenConnectionsAndPrintsTheCounters() throws Exception {
        Capability.JDK_21.assume();
        try (ServerProcess p = ServerProcess.start("vt"); Socket open = Echo.connect(p.address())) {
            assertThat(p.label()).isEqualTo("vt, echo");
            byte[] payload = Echo.random(100, 1);
            open.getOutputStream().write(payload);
            assertThat(Echo.readExactly(open.getInputStream(), 100)).isEqualTo(payload);
            assertThat(p.terminate(20)).isZero();
            assertThat(open.getInputStream().read()).as("closed at the end of the drain").isEqualTo(-1);
            assertThat(p.output()).contains("counters: accepts=1 accept_failures=0 closes=1 ")
                    .contains("bytes_in=100 bytes_out=100").contains(" live=0 ");
        }
    }

    @Test
    void portInUseIsOneLineAndExitOne() throws Exception {
        Capability.JDK_21.assume();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            try (ServerProcess p = ServerProcess.launch(List.of(), List.of("vt", "--port", Integer.toString(port)))) {
                assertThat(p.awaitExit(30)).isEqualTo(1);
                assertThat(p.output().trim()).isEqualTo("error: 127.0.0.1:" + port + " is already in use");
            }
        }
    }

    @Test
    void mpRunsVtWorkers() throws Exception {
        Capability.JDK_21.assume();
        try (ServerProcess p = ServerProcess.start("mp", "--workers", "2", "--worker-arch", "vt")) {
            assertThat(p.label()).isEqualTo("mp: 2 x vt, echo");
            byte[] payload = Echo.random(1000, 2);
            assertThat(Echo.roundTrip(p.address(), payload, 100, 2)).isEqualTo(payload);
            assertThat(p.terminate(30)).as(p.output()).isZero();
            assertThat(p.output()).contains("counters: accepts=1 ").contains(" waits=0 ");
        }
    }
}
