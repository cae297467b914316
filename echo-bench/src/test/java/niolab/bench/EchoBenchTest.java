package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EchoBenchTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = EchoBench.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void serialRunsPrintTheSeedTableWithARowPerRunAndAMeanRow() throws Exception {
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            int code = run("--requests", "20", "--runs", "3", server.hostPort());
            assertThat(code).isZero();
            String[] lines = out.toString().split("\n");
            assertThat(lines[1].trim().split("\\s+")).containsExactly("run", "qps", "min", "p50", "p90", "p99", "p999", "max", "elapsed");
            assertThat(lines[2]).startsWith("1 ");
            assertThat(lines[4]).startsWith("3 ");
            assertThat(lines[5]).startsWith("mean ");
            assertThat(lines[6]).startsWith("cpu: client ");
            assertThat(lines).hasSize(7);
            assertThat(err.toString()).isEmpty();
        }
    }

    @Test
    void refusedPortIsOneLineAndExitOne() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        int code = run("127.0.0.1:" + port);
        assertThat(code).isEqualTo(1);
        assertThat(err.toString().trim()).isEqualTo("error: connection refused by 127.0.0.1:" + port + " (is the server running?)");
    }

    @Test
    void corruptedEchoIsCountedAsMismatchAndExitsOne() throws Exception {
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.CORRUPT)) {
            assertThat(run("--requests", "5", server.hostPort())).isEqualTo(1);
            assertThat(out.toString()).contains("errors: mismatch=5");
        }
    }

    @Test
    void earlyCloseIsShortResetIsResetSilenceIsTimeout() throws Exception {
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.CLOSE_EARLY)) {
            assertThat(run("--requests", "3", server.hostPort())).isEqualTo(1);
            assertThat(out.toString()).contains("errors: short=3");
        }
        out.getBuffer().setLength(0);
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.RESET)) {
            assertThat(run("--requests", "3", server.hostPort())).isEqualTo(1);
            assertThat(out.toString()).contains("errors: reset=3");
        }
        out.getBuffer().setLength(0);
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.SILENT)) {
            assertThat(run("--requests", "2", "--timeout", "200ms", server.hostPort())).isEqualTo(1);
            assertThat(out.toString()).contains("errors: timeout=2");
        }
    }

    @Test
    void jsonHasTheConfigurationAndEveryRun(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            assertThat(run("--requests", "10", "--runs", "2", "--json", json.toString(), server.hostPort())).isZero();
        }
        String text = Files.readString(json);
        assertThat(text).startsWith("{\"tool\":\"echo-bench\"").contains("\"requests\":10")
                .contains("\"run\":1,").contains("\"run\":2,").contains("\"p99\":").contains("\"mean\":{");
    }

    @Test
    void badFlagsAreUsageErrors() {
        assertThat(run("--requests", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--requests must be at least 1");
        assertThat(run("not-a-target:x")).isEqualTo(2);
    }
}
