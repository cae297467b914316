package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code echo-bench merge}: the union of several generators' logs is the histogram of all their values. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MergeLogsTest {
    private static final String[] PERCENTILE_COLUMNS = {"min_us", "p50_us", "p90_us", "p99_us", "p999_us", "max_us"};
    private static final double[] PERCENTILES = {0, 50, 90, 99, 99.9, 100};

    /**
     * Two generators, started together by --start-at (one given as ISO-8601, one as epoch
     * seconds), each log a tag; merged, each tag's row is its own run's, and the union has every
     * request of both with the percentiles of one histogram of all their values.
     */
    @Test
    void twoRealRunsMergeIntoTheHistogramOfAllTheirValues(@TempDir Path dir) throws Exception {
        Instant at = Instant.now().plusMillis(2500).truncatedTo(ChronoUnit.MILLIS);
        String epoch = String.format(Locale.ROOT, "%d.%03d", at.getEpochSecond(), at.getNano() / 1_000_000);
        Path a = dir.resolve("a.hlog");
        Path b = dir.resolve("b.hlog");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            Future<Cli> runA = pool.submit(() -> Cli.run("-c", "2", "--threads", "1", "--keepalive", "--duration", "1s", "--interval",
                    "200ms", "--start-at", at.toString(), "--tag", "gen-a", "--hlog", a.toString(), "--csv", dir.resolve("a.csv").toString(),
                    server.hostPort()));
            Future<Cli> runB = pool.submit(() -> Cli.run("-c", "3", "--threads", "1", "--pipeline", "4", "--duration", "1s",
                    "--start-at", epoch, "--tag", "gen-b", "--hlog", b.toString(), "--csv", dir.resolve("b.csv").toString(),
                    server.hostPort()));
            for (Future<Cli> run : List.of(runA, runB)) assertThat(run.get().code()).as(run.get().out() + run.get().err()).isZero();
        } finally {
            pool.shutdownNow();
        }
        Map<String, String> runA = csvRows(dir.resolve("a.csv"), "run").get("1");
        Map<String, String> runB = csvRows(dir.resolve("b.csv"), "run").get("1");

        Cli merged = Cli.run("merge", "--csv", dir.resolve("m.csv").toString(), "--json", dir.resolve("m.json").toString(),
                a.toString(), b.toString());
        assertThat(merged.code()).as(merged.err()).isZero();
        assertThat(merged.out()).startsWith("# echo-bench merge: 2 generators in ").doesNotContain("warning:")
                .contains("gen-a: " + a + ", started ").contains("(no schedule in the log: a closed loop)");
        assertThat(merged.out().split("\n")[1].trim().split("\\s+"))
                .containsExactly("run", "qps", "min", "p50", "p90", "p99", "p999", "max", "elapsed");
        Map<String, Map<String, String>> rows = csvRows(dir.resolve("m.csv"), "tag");
        assertThat(rows.keySet()).containsExactlyInAnyOrder("gen-a", "gen-b", "union");

        // each tag's row is its run's: the log lost no interval
        Histogram precision = new Histogram(3);
        assertSameRow(precision, rows.get("gen-a"), runA);
        assertSameRow(precision, rows.get("gen-b"), runB);

        Histogram all = new Histogram(3);
        long firstStart = Long.MAX_VALUE;
        for (Path log : List.of(a, b)) {
            try (HistogramLogReader reader = new HistogramLogReader(log.toFile())) {
                while (reader.hasNext()) {
                    EncodableHistogram h = reader.nextIntervalHistogram();
                    if (h == null) continue;
                    all.add((Histogram) h);
                    firstStart = Math.min(firstStart, h.getStartTimeStamp());
                }
            }
        }
        assertThat(firstStart).as("no generator measured before --start-at").isGreaterThanOrEqualTo(at.toEpochMilli());
        assertThat(all.getTotalCount()).isEqualTo(Long.parseLong(runA.get("requests")) + Long.parseLong(runB.get("requests")));
        assertUnion(all, rows.get("union"));
        assertThat(Files.readString(dir.resolve("m.json"))).startsWith("{\"tool\":\"echo-bench\",\"schema\":2,\"command\":\"merge\"")
                .contains("\"tag\":\"union\",\"requests\":" + all.getTotalCount() + ",").contains("\"warnings\":[]");
    }

    /** Logs written by HdrHistogram's own writer, values known: the union row is the histogram of every value. */
    @Test
    void theUnionOfHandWrittenLogsIsTheHistogramOfEveryValue(@TempDir Path dir) throws Exception {
        long t0 = 1_767_268_800_000L;
        Histogram all = new Histogram(3);
        Path a = writeLog(dir.resolve("a.hlog"), "a", t0, all, new long[][] {{100, 1100, 1}, {5_000, 9_000, 3}});
        Path b = writeLog(dir.resolve("b.hlog"), "b", t0 + 200, all, new long[][] {{200, 20_000, 7}, {40, 90, 1}, {70_000, 71_000, 1}});
        Cli merged = Cli.run("merge", "--csv", dir.resolve("m.csv").toString(), a.toString(), b.toString());
        assertThat(merged.code()).as(merged.err()).isZero();
        assertThat(merged.out()).contains("; 1.800 s in common").doesNotContain("warning:");
        Map<String, String> union = csvRows(dir.resolve("m.csv"), "tag").get("union");
        assertUnion(all, union);
        assertThat(union.get("elapsed_s")).isEqualTo("3.200");
    }

    @Test
    void generatorsThatStartedMoreThanASecondApartAreWarnedAbout(@TempDir Path dir) throws Exception {
        long t0 = 1_767_268_800_000L;
        Histogram all = new Histogram(3);
        Path a = writeLog(dir.resolve("a.hlog"), "a", t0, all, new long[][] {{100, 200, 1}, {100, 200, 1}, {100, 200, 1}});
        Path b = writeLog(dir.resolve("b.hlog"), "b", t0 + 2_000, all, new long[][] {{100, 200, 1}, {100, 200, 1}});
        Cli merged = Cli.run("merge", a.toString(), b.toString());
        assertThat(merged.code()).isZero();
        assertThat(merged.out()).contains("warning: the generators started 2.000 s apart (a 2026-01-01T12:00:00Z to ");
    }

    @Test
    void logsWithNoTimeInCommonAreOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        long t0 = 1_767_268_800_000L;
        Histogram all = new Histogram(3);
        Path a = writeLog(dir.resolve("a.hlog"), "a", t0, all, new long[][] {{100, 200, 1}});
        Path b = writeLog(dir.resolve("b.hlog"), "b", t0 + 5_000, all, new long[][] {{100, 200, 1}});
        Cli merged = Cli.run("merge", a.toString(), b.toString());
        assertThat(merged.code()).isEqualTo(2);
        assertThat(merged.err()).isEqualTo("error: the logs share no time range: a 2026-01-01T12:00:00Z to 2026-01-01T12:00:01Z, "
                + "b 2026-01-01T12:00:05Z to 2026-01-01T12:00:06Z\n");
        assertThat(merged.out()).isEmpty();
    }

    @Test
    void aFileThatIsNotAnIntervalLogIsOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        Path good = writeLog(dir.resolve("good.hlog"), "a", 1_767_268_800_000L, new Histogram(3), new long[][] {{100, 200, 1}, {100, 200, 1}});
        Path text = Files.writeString(dir.resolve("notes.txt"), "hello, world\nsecond line\n");
        Path empty = Files.writeString(dir.resolve("empty.hlog"), "");
        Path hgrm = Files.writeString(dir.resolve("r.hgrm"), "       Value     Percentile TotalCount 1/(1-Percentile)\n\n       0.041 0.000000000000          1           1.00\n");
        List<String> lines = Files.readAllLines(good);
        Path garbled = dir.resolve("garbled.hlog");
        lines.set(lines.size() - 1, lines.get(lines.size() - 1).substring(0, 40) + "!!");
        Files.write(garbled, lines);
        for (Path bad : List.of(text, empty, hgrm, garbled)) {
            Cli merged = Cli.run("merge", good.toString(), bad.toString());
            assertThat(merged.code()).as(bad.toString()).isEqualTo(2);
            assertThat(merged.err()).startsWith("error: " + bad + " is not an HdrHistogram interval log (").hasLineCount(1);
            assertThat(merged.out()).isEmpty();
        }
        Cli missing = Cli.run("merge", dir.resolve("nowhere.hlog").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("error: cannot read " + dir.resolve("nowhere.hlog") + ": no such file\n");
    }

    /**
     * A log of one interval per row of {@code intervals} ({from, to, step} in µs), each 1 s long
     * from {@code startMillis}, written as HdrHistogram's tools write it; every value also goes into {@code all}.
     */
    private static Path writeLog(Path file, String tag, long startMillis, Histogram all, long[][] intervals) throws Exception {
        try (PrintStream ps = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.US_ASCII)) {
            HistogramLogWriter w = new HistogramLogWriter(ps);
            w.outputLogFormatVersion();
            w.outputStartTime(startMillis);
            w.setBaseTime(startMillis);
            w.outputBaseTime(startMillis);
            w.outputLegend();
            for (int i = 0; i < intervals.length; i++) {
                Histogram h = new Histogram(3);
                for (long v = intervals[i][0]; v <= intervals[i][1]; v += intervals[i][2]) h.recordValue(v);
                all.add(h);
                h.setTag(tag);
                w.outputIntervalHistogram(i, i + 1, h, 1000.0);
            }
        }
        return file;
    }

    /** The union row's count is the histogram's, and each percentile the same value within its precision. */
    private static void assertUnion(Histogram all, Map<String, String> union) {
        assertThat(Long.parseLong(union.get("requests"))).isEqualTo(all.getTotalCount());
        for (int i = 0; i < PERCENTILES.length; i++) {
            long expected = PERCENTILES[i] == 0 ? all.getMinValue() : all.getValueAtPercentile(PERCENTILES[i]);
            long merged = Long.parseLong(union.get(PERCENTILE_COLUMNS[i]));
            assertThat(all.valuesAreEquivalent(expected, merged)).as("%s: %d vs %d", PERCENTILE_COLUMNS[i], expected, merged).isTrue();
        }
    }

    private static void assertSameRow(Histogram precision, Map<String, String> merged, Map<String, String> run) {
        assertThat(merged.get("requests")).isEqualTo(run.get("requests"));
        for (String column : PERCENTILE_COLUMNS) {
            long m = Long.parseLong(merged.get(column));
            long r = Long.parseLong(run.get(column));
            assertThat(precision.valuesAreEquivalent(m, r)).as("%s: %d vs %d", column, m, r).isTrue();
        }
    }

    /** A CSV file with a header, as maps from column to cell, by the cell of {@code key}. */
    private static Map<String, Map<String, String>> csvRows(Path csv, String key) throws Exception {
        List<String> lines = Files.readAllLines(csv);
        String[] header = lines.get(0).split(",", -1);
        Map<String, Map<String, String>> rows = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length; i++) row.put(header[i], cells[i]);
            rows.put(row.get(key), row);
        }
        return rows;
    }
}
