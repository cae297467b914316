package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --hlog}, {@code --tag} and {@code --start-at} on the generator's side. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IntervalLogTest {
    /** Total count per tag, read back with HdrHistogram's own reader. */
    static Map<String, Long> countsByTag(Path log) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(log.toFile())) {
            while (reader.hasNext()) {
                EncodableHistogram h = reader.nextIntervalHistogram();
                if (h != null) counts.merge(h.getTag(), ((org.HdrHistogram.Histogram) h).getTotalCount(), Long::sum);
            }
        }
        return counts;
    }

    /**
     * Under --rate the log holds both histograms, tagged NAME and NAME-uncorrected, with the same
     * requests; a server stall makes the client fall behind, which the log records and merge reports.
     */
    @Test
    void rateRunsLogBothHistogramsAndTheScheduleLag(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("r.hlog");
        Cli run;
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.STALL_ONCE)) {
            run = Cli.run("-c", "1", "--keepalive", "--rate", "1000", "--duration", "1500ms", "--hlog", log.toString(), "--tag", "g",
                    server.hostPort());
        }
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        Map<String, Long> counts = countsByTag(log);
        assertThat(counts.keySet()).containsExactly("g", "g-uncorrected");
        assertThat(counts.get("g")).isPositive().isEqualTo(counts.get("g-uncorrected"));
        String text = Files.readString(log);
        assertThat(text).contains("#[StartTime: ").contains("#[BaseTime: ").contains("values in microseconds")
                .containsPattern("#\\[schedule-lag tag=g run=1 target=1000\\.0/s late=[1-9]\\d* max_lag_ms=");

        Cli merged = Cli.run("merge", log.toString());
        assertThat(merged.code()).as(merged.err()).isZero();
        assertThat(merged.out()).contains("\ng-uncorrected ").contains("\nunion ").contains("\nunion-uncorrected ")
                .contains("(target 1000.0/s; ").contains("warning: g fell behind its schedule: ");
    }

    @Test
    void startAtInThePastIsOneLineAndExitTwo() {
        for (String past : new String[] {"2000-01-01T00:00:00Z", "946684800", "946684800.5"}) {
            Cli run = Cli.run("--start-at", past, "127.0.0.1:9");
            assertThat(run.code()).isEqualTo(2);
            assertThat(run.err()).startsWith("error: --start-at 2000-01-01T00:00:").contains(" is in the past (it is now ")
                    .hasLineCount(1);
            assertThat(run.out()).isEmpty();
        }
    }

    @Test
    void badTimesAndTagsAreUsageErrors(@TempDir Path dir) {
        String log = dir.resolve("x.hlog").toString();
        assertThat(Cli.run("--start-at", "noon").err()).contains("'noon' is not a time");
        assertThat(Cli.run("--start-at", "2030-01-01T12:00:00").code()).isEqualTo(2); // no zone: hosts would disagree
        assertThat(Cli.run("--hlog", log, "--tag", "a,b").err()).contains("--tag must not contain spaces or commas");
        assertThat(Cli.run("--tag", "a").err()).contains("--tag names this generator in --hlog");
        assertThat(Files.exists(Path.of(log))).isFalse();
    }
}
