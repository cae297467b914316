package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.ServerProcess;
import niolab.server.testing.ServerUnderTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a user sees from the command line: ready line, errors for people, graceful stop. Written
 * once; each server runs it through a subclass that says how to start it, as the other contract
 * suites do (its ready line's label, the protocol a default start speaks).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
public abstract class CliContractTest extends ServerContractTest {
    /** Each test starts (or fails to start) a server of its own. */
    @Override
    protected ServerProcess startSharedServer() {
        return null;
    }

    /**
     * One complete exchange on a fresh connection, proving it was accepted; returns the
     * {@code bytes_in=... bytes_out=...} the counters must show for it (echo: 100 bytes each way).
     */
    private String exchange(Socket s) throws IOException {
        if (serverUnderTest().protocol().equals("http")) {
            byte[] request = Http.ascii(Http.get("/ping"));
            s.getOutputStream().write(request);
            assertThat(Http.read(s.getInputStream()).status()).isEqualTo(200);
            return "bytes_in=" + request.length + " ";
        }
        byte[] payload = Echo.random(100, 1);
        s.getOutputStream().write(payload);
        assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
        return "bytes_in=100 bytes_out=100";
    }

    /** Launches {@code command args...} without waiting for a ready line. */
    protected final ServerProcess launch(String... args) throws IOException {
        return ServerProcess.launch(List.of(), serverUnderTest().commandLine(List.of(args)));
    }

    @Test
    void readyLineNamesTheServerAndSigtermStopsGracefullyWithCounters() throws Exception {
        try (ServerProcess p = startServer()) {
            ServerUnderTest sut = serverUnderTest();
            assertThat(p.label()).isEqualTo(sut.label() + ", " + sut.protocol());
            String bytes;
            try (Socket s = Echo.connect(p.address())) {
                bytes = exchange(s);
            }
            assertThat(p.terminate(20)).isZero();
            assertThat(p.output()).contains("counters: accepts=1 ").contains(bytes);
        }
    }

    @Test
    void portInUseIsOneLineAndExitOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            try (ServerProcess p = launch("--port", Integer.toString(port))) {
                assertThat(p.awaitExit(60)).isEqualTo(1);
                assertThat(p.output().trim()).isEqualTo("error: 127.0.0.1:" + port + " is already in use");
            }
        }
    }

    /**
     * Runs {@code command args...} in this JVM, as its main does short of exiting: for a case
     * that only parses flags. {@link #badFlagGivesUsageAndExitTwo} checks, in a real process, that
     * such an error is the exit status the shell sees, with no stack trace on the real stderr.
     */
    protected final ServerProcess.InProcess runInProcess(String... args) throws Exception {
        return ServerProcess.runInProcess(serverUnderTest().commandLine(List.of(args)));
    }

    @Test
    void badFlagGivesUsageAndExitTwo() throws Exception {
        try (ServerProcess p = launch("--no-such-flag")) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output()).contains("Unknown option: '--no-such-flag'").contains("Usage:").doesNotContain("Exception");
        }
    }

    @Test
    void unknownProtocolGivesUsageAndExitTwo() throws Exception {
        ServerProcess.InProcess run = runInProcess("--protocol", "smtp");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("'smtp' is not a protocol (echo or http)").doesNotContain("Exception");
    }

    @Test
    void unknownHostIsOneLine() throws Exception {
        try (ServerProcess p = launch("--host", "no-such-host.invalid", "--port", "0")) {
            assertThat(p.awaitExit(30)).isEqualTo(1);
            assertThat(p.output().trim()).isEqualTo("error: cannot resolve host 'no-such-host.invalid'");
        }
    }

    @Test
    void connectionsOpenAtSigtermAreClosedAndTheServerStillExitsZero() throws Exception {
        try (ServerProcess p = startServer(); Socket open = Echo.connect(p.address())) {
            // One exchange first, so the connection has surely been accepted (not left in the
            // backlog, where closing the listener would reset it).
            exchange(open);
            assertThat(p.terminate(20)).isZero();
            assertThat(open.getInputStream().read()).isEqualTo(-1);
        }
    }
}
