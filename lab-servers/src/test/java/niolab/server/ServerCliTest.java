package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a user sees from the command line: ready line, errors for people, graceful stop. Written
 * once; each server runs it through a subclass that names its subcommand, as the contract
 * suites do, and overrides a hook where it differs (its ready line, the protocol it speaks).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
public abstract class ServerCliTest {
    /** The subcommand that starts this server, e.g. {@code lt}. */
    protected abstract String arch();

    /** Options every start adds after the subcommand (mp: its worker count). */
    protected List<String> baseArgs() {
        return List.of();
    }

    /** The ready line's text in brackets for a default start. */
    protected String expectedLabel() {
        return arch() + ", echo";
    }

    /**
     * One complete exchange on a fresh connection, proving it was accepted; returns the
     * {@code bytes_in=... bytes_out=...} the counters must show for it (echo: 100 bytes each way).
     */
    protected String exchange(Socket s) throws IOException {
        byte[] payload = Echo.random(100, 1);
        s.getOutputStream().write(payload);
        assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
        return "bytes_in=100 bytes_out=100";
    }

    /** What a server whose port is taken prints: by default exactly one line, {@code error: } and the reason. */
    protected void assertPortInUseSaid(String output, String reason) {
        assertThat(output).isEqualTo("error: " + reason);
    }

    protected final ServerProcess start() throws Exception {
        List<String> args = new ArrayList<>(List.of(arch()));
        args.addAll(baseArgs());
        return ServerProcess.start(args.toArray(String[]::new));
    }

    /** Launches {@code arch baseArgs... args...} without waiting for a ready line. */
    protected final ServerProcess launch(String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(arch()));
        all.addAll(baseArgs());
        all.addAll(List.of(args));
        return ServerProcess.launch(List.of(), all);
    }

    @Test
    void readyLineNamesTheServerAndSigtermStopsGracefullyWithCounters() throws Exception {
        try (ServerProcess p = start()) {
            assertThat(p.label()).isEqualTo(expectedLabel());
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
                assertPortInUseSaid(p.output().trim(), "127.0.0.1:" + port + " is already in use");
            }
        }
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
        try (ServerProcess p = launch("--protocol", "smtp")) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output()).contains("'smtp' is not a protocol (echo or http)").doesNotContain("Exception");
        }
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
        try (ServerProcess p = start(); Socket open = Echo.connect(p.address())) {
            // One exchange first, so the connection has surely been accepted (not left in the
            // backlog, where closing the listener would reset it).
            exchange(open);
            assertThat(p.terminate(20)).isZero();
            assertThat(open.getInputStream().read()).isEqualTo(-1);
        }
    }
}
