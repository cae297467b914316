package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a user sees from the command line: ready line, errors for people, graceful stop. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ServerCliTest {

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et", "mp"})
    void readyLineNamesTheArchitectureAndSigtermStopsGracefullyWithCounters(String arch) throws Exception {
        // mp runs 2 lt workers here; its ready line says so.
        boolean mp = arch.equals("mp");
        try (ServerProcess p = mp ? ServerProcess.start(arch, "--workers", "2") : ServerProcess.start(arch)) {
            assertThat(p.label()).isEqualTo(mp ? "mp: 2 x lt, echo" : arch + ", echo");
            byte[] payload = Echo.random(100, 1);
            assertThat(Echo.roundTrip(p.address(), payload, 100, 1)).isEqualTo(payload);
            assertThat(p.terminate(20)).isZero();
            assertThat(p.output()).contains("counters: accepts=1 ").contains("bytes_in=100 bytes_out=100");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void portInUseIsOneLineAndExitOne(String arch) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            try (ServerProcess p = ServerProcess.launch(List.of(), List.of(arch, "--port", Integer.toString(port)))) {
                assertThat(p.awaitExit(30)).isEqualTo(1);
                assertThat(p.output().trim()).isEqualTo("error: 127.0.0.1:" + port + " is already in use");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et", "mp"})
    void badFlagGivesUsageAndExitTwo(String arch) throws Exception {
        try (ServerProcess p = ServerProcess.launch(List.of(), List.of(arch, "--no-such-flag"))) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output()).contains("Unknown option: '--no-such-flag'").contains("Usage:").doesNotContain("Exception");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"uring", "mp --worker-arch uring"})
    void uringOnAJdkOlderThan22IsOneLineAndExitTwo(String command) throws Exception {
        int jdk = Runtime.version().feature();
        assumeTrue(jdk < 22, "this JVM runs uring");
        try (ServerProcess p = ServerProcess.launch(List.of(), List.of(command.split(" ")))) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output().trim()).isEqualTo("error: uring needs JDK 22 or newer (this JVM is " + jdk + ")");
        }
    }

    @Test
    void unknownProtocolGivesUsageAndExitTwo() throws Exception {
        try (ServerProcess p = ServerProcess.launch(List.of(), List.of("lt", "--protocol", "smtp"))) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output()).contains("'smtp' is not a protocol (echo or http)").doesNotContain("Exception");
        }
    }

    @Test
    void unknownHostIsOneLine() throws Exception {
        try (ServerProcess p = ServerProcess.launch(List.of(), List.of("lt", "--host", "no-such-host.invalid", "--port", "0"))) {
            assertThat(p.awaitExit(30)).isEqualTo(1);
            assertThat(p.output().trim()).isEqualTo("error: cannot resolve host 'no-such-host.invalid'");
        }
    }

    @Test
    void connectionsOpenAtSigtermAreClosedAndTheServerStillExitsZero() throws Exception {
        try (ServerProcess p = ServerProcess.start("lt"); Socket idle = Echo.connect(p.address())) {
            // One echo first, so the connection has surely been accepted (not left in the backlog,
            // where closing the listener would reset it).
            idle.getOutputStream().write(7);
            assertThat(idle.getInputStream().read()).isEqualTo(7);
            assertThat(p.terminate(20)).isZero();
            assertThat(idle.getInputStream().read()).isEqualTo(-1);
        }
    }
}
