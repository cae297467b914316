package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-profile on fixtures: the shares come from the collapsed stacks, the µs per request from the
 * profiled run's server CPU, vt's extra cost is named by category, and a server without a
 * profile is left out rather than shown as zero.
 */
class ProfileExperimentTest {
    private static final Path EXPERIMENTS = Paths.get("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private Path results;

    @BeforeEach
    void writeRun() throws Exception {
        results = dir.resolve("results/profile");
        Files.createDirectories(results);
        Files.createDirectories(dir.resolve("templates"));
        Files.copy(EXPERIMENTS.resolve("templates/exp-profile.md"), dir.resolve("templates/exp-profile.md"));
        Files.writeString(results.resolve("env.json"), "{\"date\":\"d\",\"cpu\":\"c\",\"cores\":2,\"memory\":\"m\",\"kernel\":\"k\",\"jdk\":\"j\","
                + "\"java_opts\":\"\",\"server_cpu\":\"0\",\"client_cpu\":\"1\",\"ulimit_n\":\"1024\",\"ip_local_port_range\":\"1 2\",\"tcp_tw_reuse\":\"2\",\"commit\":\"x\"}");
        String bench = Files.readString(Paths.get(getClass().getResource("/echo-bench-sample.json").toURI()));
        for (String mode : new String[] {"keepalive", "echo"}) {
            gzip(results.resolve("lt-" + mode + ".collapsed.gz"), ProfileCategoriesTest.fixture("fixture-lt-keepalive.collapsed"));
            gzip(results.resolve("vt-" + mode + ".collapsed.gz"), ProfileCategoriesTest.fixture("fixture-vt-keepalive.collapsed"));
            Files.writeString(results.resolve("lt-" + mode + ".json"), bench);
            // vt: twice lt's server CPU per request (6.4 and 6.0 µs in the sample: median 6.2)
            Files.writeString(results.resolve("vt-" + mode + ".json"), bench.replace("\"server\": 6.4", "\"server\": 12.8").replace("\"server\": 6.0", "\"server\": 12.0"));
        }
        gzip(results.resolve("lt-pipelined.collapsed.gz"), ProfileCategoriesTest.fixture("fixture-lt-keepalive.collapsed"));
        Files.writeString(results.resolve("lt-pipelined.json"), bench);
    }

    private static void gzip(Path to, Path from) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(to))) {
            out.write(Files.readAllBytes(from));
        }
    }

    @Test
    void sharesAndVtsExtraCostComeFromTheStacks() throws IOException {
        Map<Path, String> files = ExperimentReports.render(dir, new ProfileExperiment());
        String md = files.get(Paths.get("exp-profile.md"));
        // lt fixture: 33 of 100 samples in the TCP send, its largest category
        assertThat(md).contains("lt: kernel TCP send (33.0%)");
        // parser: 20% of lt's 6.2 µs = 1.24 µs, the 2nd largest category
        assertThat(md).contains("lt 20.0% (1.24 µs/request, 2nd of its categories)");
        // vt 12.4 µs against lt's 6.2; the scheduler is 24/42 of vt's, none of lt's: +7.09 µs
        assertThat(md).contains("vt used 12.40 µs of server CPU per request against lt's 6.20 (2.00×, +6.20 µs)");
        assertThat(md).contains("vt scheduler, poller, park +7.09 µs");
        // one profiled run per server gives no interval: the claim waits for bench-vt's rounds
        assertThat(md).contains("| vt's server CPU per keep-alive /ping within 1.25× lt's (one profiled run each) | 2.00 | none (1 round) | 1 | ≤ 1.25 | undecided");
        // no vt pipelined profile: the row is absent, not zero
        assertThat(md).contains("pipelined /ping\n  lt;");
        assertThat(files).containsKeys(Paths.get("charts/profile-keepalive.svg"), Paths.get("charts/profile-flame-vt-keepalive.svg"))
                .doesNotContainKey(Paths.get("charts/profile-flame-vt-pipelined.svg"));
        assertThat(files.get(Paths.get("charts/profile-flame-lt-keepalive.svg"))).contains("HttpRequestParser.parse (20.0%)");
    }

    @Test
    void ltsShortConnectionsNameTheJdkCallsFromTheirFrames() throws IOException {
        String loop = "java/lang/Thread.run;niolab/server/base/EventLoop.run;niolab/server/lt/LevelTriggeredServer.accept;";
        Files.writeString(results.resolve("lt-short.collapsed"), loop + "sun/nio/ch/ServerSocketChannelImpl.accept;accept 20\n"
                + loop + "java/nio/channels/spi/AbstractSelectableChannel.configureBlocking;fcntl 10\n"
                + loop + "sun/nio/ch/SocketChannelImpl.setOption;setsockopt 5\n"
                + "java/lang/Thread.run;sun/nio/ch/SelectorImpl.select;sun/nio/ch/EPollSelectorImpl.processUpdateQueue;epoll_ctl 5\n"
                + "java/lang/Thread.run;sun/nio/ch/SelectorImpl.select;sun/nio/ch/SelectorImpl.processDeregisterQueue;close 10\n"
                + "java/lang/Thread.run;sun/nio/ch/SelectorImpl.select;epoll_wait 50\n");
        gzip(results.resolve("lt-short.collapsed.gz"), results.resolve("lt-short.collapsed"));
        Files.delete(results.resolve("lt-short.collapsed"));
        Files.writeString(results.resolve("lt-short.json"), Files.readString(results.resolve("lt-keepalive.json")));
        String md = ExperimentReports.render(dir, new ProfileExperiment()).get(Paths.get("exp-profile.md"));
        // 100 samples, lt's median CPU 6.2 µs per request (the sample run)
        assertThat(md).contains("lt used 6.20 µs of server CPU per connection; the JDK calls of its accept-to-close path took, of its 100 samples: "
                + "`accept` 20.0% (1.24 µs), `configureBlocking` 10.0% (0.62 µs), `setOption` 5.0% (0.31 µs), `register` 5.0% (0.31 µs), "
                + "`close` 10.0% (0.62 µs): together 50.0% (3.10 µs per connection)");
        assertThat(md).contains("- Short connections: lt: ");
    }

    @Test
    void aModeNotProfiledSaysSo() throws IOException {
        Map<Path, String> files = ExperimentReports.render(dir, new ProfileExperiment());
        String md = files.get(Paths.get("exp-profile.md"));
        assertThat(md).contains("### 3.4 Short connections (echo, a fresh connection per request)\n\nNot profiled in this run.");
        assertThat(md).contains("- Short connections: not profiled in this run.");
        assertThat(files).doesNotContainKey(Paths.get("charts/profile-short.svg"));
    }
}
