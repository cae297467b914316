package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchMerge;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.BenchReport.Run;
import niolab.common.results.ResultsJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading results: echo-bench's JSON into records, the CSV files, the servers' counters lines. */
class ResultsTest {
    /** The generator's reader, made strict: a field of the schema the records lack fails the read. */
    private static final ObjectMapper STRICT = ResultsJson.MAPPER.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static BenchReport sample() throws IOException {
        try (var in = ResultsTest.class.getResourceAsStream("/echo-bench-sample.json")) {
            return STRICT.readValue(in, BenchReport.class);
        }
    }

    @Test
    void recordsMirrorEveryFieldOfTheSchema() throws IOException {
        BenchReport b = sample();
        assertThat(b.tool()).isEqualTo("echo-bench");
        assertThat(b.schema()).isEqualTo(BenchReport.SCHEMA);
        assertThat(b.config().mode()).isEqualTo("keepalive");
        assertThat(b.config().requests()).isNull();
        assertThat(b.config().durationS()).isEqualTo(2.0);
        assertThat(b.config().timeoutMs()).isEqualTo(5000);
        assertThat(b.config().maxErrorRate()).isEqualTo(0.001);
        assertThat(b.config().serverPid()).isNull();
        assertThat(b.environment().localPortRange()).isEqualTo("32768-60999");
        assertThat(b.warmup().run()).isZero();
        assertThat(b.warmup().cpuUsPerRequest().server()).isNull();
        assertThat(b.warmup().timeWait()).isNull();
        Run r = b.runs().get(0);
        assertThat(r.elapsedS()).isEqualTo(2.0);
        assertThat(r.latencyUs().p999()).isEqualTo(3189.0);
        assertThat(r.uncorrectedLatencyUs().p99()).isEqualTo(300.0);
        assertThat(r.errors().closedEarly()).isEqualTo(1);                // "short"
        assertThat(r.errors().total()).isEqualTo(r.attempted() - r.requests());
        assertThat(r.schedule().maxLagUs()).isEqualTo(201300);
        assertThat(r.intervals()).hasSize(2);
        assertThat(r.intervals().get(1).tS()).isEqualTo(2.0);
        assertThat(r.intervals().get(0).p99Us()).isEqualTo(180);
        assertThat(b.mean().latencyUs().p999()).isEqualTo(2594.5);
        assertThat(b.errors().total()).isEqualTo(2);
    }

    @Test
    void columnsMediansAndMeansOverTheRuns() throws IOException {
        BenchReport b = sample();
        assertThat(b.column(Column.P99)).containsExactly(350.0, 310.0);
        assertThat(Stats.median(b.column(Column.QPS))).isEqualTo(19999.5);
        assertThat(Stats.mean(b.column(Column.MAX))).isEqualTo(b.mean().latencyUs().max());
        assertThat(Stats.median(b.serverCpuPerRun())).isEqualTo(6.2, offset(1e-9));
    }

    /** Every echo-bench file the committed experiments rest on reads strictly, and as schema 2. */
    @Test
    void everyCommittedEchoBenchFileReads() throws IOException {
        List<Path> files;
        try (Stream<Path> all = Files.walk(Paths.get("..", "results"))) {
            files = all.filter(p -> p.toString().endsWith(".json") && !p.endsWith("env.json")).toList();
        }
        assertThat(files).hasSizeGreaterThan(100);
        int runs = 0, others = 0;
        for (Path f : files) {
            // A run's report, or merge's or compare's (each its own record); not another tool's JSON.
            com.fasterxml.jackson.databind.JsonNode tree = STRICT.readTree(Files.readString(f));
            if (!"echo-bench".equals(tree.path("tool").asText())) continue;
            if (tree.has("command")) {
                Class<?> type = tree.get("command").asText().equals(BenchMerge.COMMAND) ? BenchMerge.class : BenchComparison.class;
                assertThat(STRICT.readValue(Files.readString(f), type)).as(f.toString()).isNotNull();
                others++;
                continue;
            }
            runs++;
            BenchReport b = STRICT.readValue(Files.readString(f), BenchReport.class);
            assertThat(b.schema()).as(f.toString()).isEqualTo(BenchReport.SCHEMA);
            assertThat(b.runs()).as(f.toString()).isNotEmpty();
        }
        assertThat(runs).isGreaterThan(100);
        assertThat(others).isPositive();
    }

    @Test
    void anotherSchemaOrANullCountIsRefused(@TempDir Path dir) throws IOException {
        String sample = new String(ResultsTest.class.getResourceAsStream("/echo-bench-sample.json").readAllBytes(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("v3.json"), sample.replace("\"schema\": 2", "\"schema\": 3"));
        Files.writeString(dir.resolve("null.json"), sample.replace("\"requests\": 39998", "\"requests\": null"));
        Results r = new Results(dir);
        assertThatThrownBy(() -> r.bench("v3.json")).hasMessageContaining("echo-bench schema 3, but this generator reads echo-bench schema 2");
        assertThatThrownBy(() -> r.bench("null.json")).hasMessageContaining("null.json");
    }

    @Test
    void oneCsvRuleForMissingAndExtraCells() {
        Csv csv = Csv.parse("arch,clients,qps\nlt,10,100.5\net,10,\nlt,20\n", "t.csv");
        assertThat(csv.rows()).hasSize(3);
        assertThat(csv.rows().get(2).get("qps")).isEmpty();
        assertThat(csv.numbers("qps", "arch", "lt")).containsExactly(100.5, Double.NaN);
        assertThat(csv.numbers("qps", "clients", "10")).containsExactly(100.5, Double.NaN);
        assertThat(csv.row("arch", "et").get("clients")).isEqualTo("10");
        assertThatThrownBy(() -> csv.row("arch", "lt")).hasMessage("t.csv: 2 rows, not one, where arch lt");
        assertThatThrownBy(() -> Csv.parse("a,b\n1,2,3\n", "x.csv")).hasMessage("x.csv line 2: 3 cells under a header of 2");
    }

    @Test
    void countersAreTheLastSummedLineWithTheRatioDerived(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("mp.txt"), String.join("\n",
                "listening on 127.0.0.1:9988 (mp, echo)",
                "[w1] counters: accepts=5 selects=2818 events=9312 events_per_wait=3.30 restarts=0",
                "[w2] counters: accepts=6 selects=2197 events=10702 events_per_wait=4.87 restarts=0",
                "counters: accepts=11 partial_writes=2 selects=5015 events=20014 events_per_wait=3.99", ""));
        Files.writeString(dir.resolve("et.txt"), "counters: accepts=1 epoll_waits=2296 events=20019 events_per_wait=8.72\n");
        Files.writeString(dir.resolve("none.txt"), "listening on 127.0.0.1:9988 (lt, echo)\n");
        Results r = new Results(dir);
        ServerCounters mp = r.counters("mp.txt");
        assertThat(mp.get("accepts")).isEqualTo(11);
        assertThat(mp.get("partial_writes")).isEqualTo(2);
        assertThat(mp.get("resets")).isZero();
        assertThat(Md.f2(mp.eventsPerWait())).isEqualTo("3.99");
        assertThat(Md.f2(r.counters("et.txt").eventsPerWait())).isEqualTo("8.72");
        assertThatThrownBy(() -> r.counters("none.txt")).hasMessageEndingWith("none.txt has no counters line");
    }

    @Test
    void statsOfKnownInputs() {
        double[] v = {3, 1, 2, 10};
        assertThat(Stats.sum(v)).isEqualTo(16.0);
        assertThat(Stats.mean(v)).isEqualTo(4.0);
        assertThat(Stats.median(v)).isEqualTo(2.5);
        assertThat(Stats.median(new double[] {5, 1, 3})).isEqualTo(3.0);
        assertThat(Stats.spread(v)).isEqualTo(9.0);
        assertThat(Stats.relativeSpread(v)).isEqualTo(3.6);
        assertThat(Stats.pctDiff(110, 100)).isEqualTo(10.0, offset(1e-9));
        assertThat(Stats.best(v, true)).isEqualTo(3);
        assertThat(Stats.best(v, false)).isEqualTo(1);
        assertThat(Stats.median(new double[0])).isNaN();
    }

    @Test
    void theEnvironmentBlockSaysWhatTheRunRecordedAndWhatItDidNot(@TempDir Path dir) throws IOException {
        String env = "{\"date\":\"d\",\"cpu\":\"c\",\"cores\":2,\"memory\":\"m\",\"kernel\":\"k\",\"jdk\":\"j\",\"java_opts\":\"\","
                + "\"server_cpu\":\"0\",\"client_cpu\":\"1\",\"ulimit_n\":\"1024\",\"ip_local_port_range\":\"1 2\",\"tcp_tw_reuse\":\"2\","
                + "\"commit\":\"abc1234 (with uncommitted changes)\"}";
        Files.writeString(dir.resolve("env.json"), env, StandardCharsets.UTF_8);
        String bare = new Results(dir).environment(Threshold.DEFAULT);
        assertThat(bare).contains("| load average (1 min) | `not recorded` |", "| steal time | `not recorded` |",
                "| A/A check | `not recorded` |", "uncommitted changes: the code that produced these figures");
        Files.writeString(dir.resolve("conditions.json"), "{\"loadavg_before\":\"1.20 1.00 0.90\",\"loadavg_after\":\"2.10 1.40 1.00\","
                + "\"steal_ticks\":3,\"total_ticks\":1000,\"steal_percent\":0.30,\"noise\":\"noise.json\"}", StandardCharsets.UTF_8);
        // 20 rounds: lt-b's rate over lt-a's 0.98, 0.99, ..., 1.17 (round i: 0.97 + i / 100); the summary the run printed is not read
        List<BenchComparison.Slice> slices = new java.util.ArrayList<>();
        for (int round = 1; round <= 20; round++) {
            double b = 1000 * (0.97 + round / 100.0);
            slices.add(new BenchComparison.Slice(round, 0, "lt-a", 1000, 0, 1.0, 1000.0, null, null, null, false));
            slices.add(new BenchComparison.Slice(round, 1, "lt-b", Math.round(b), 0, 1.0, b, null, null, null, false));
        }
        Files.writeString(dir.resolve("noise.json"), ResultsJson.compact(new BenchComparison(BenchReport.TOOL, BenchReport.SCHEMA,
                BenchComparison.COMMAND, null, null, List.of(new BenchComparison.Server("lt-a", "127.0.0.1:1", null, null),
                new BenchComparison.Server("lt-b", "127.0.0.1:2", null, null)), slices, new BenchComparison.Summary(List.of(), List.of()))),
                StandardCharsets.UTF_8);
        // median of 0.98..1.17 is 1.075; of 20 sorted, the 6th (1.03) and the 15th (1.12)
        assertThat(new Results(dir).environment(Threshold.DEFAULT)).contains("| load average (1 min) | `1.20 1.00 0.90 before, 2.10 1.40 1.00 after (1, 5, 15 min)` |",
                "| steal time | `0.30% of the CPU time over the run` |",
                "| A/A check | `lt against lt, rate ratio over 20 rounds; A/A check: 1.075 [1.030, 1.120], warning: reaches 12.0% from 1,"
                        + " beyond ±2%, so noise alone spans a difference this report counts; a verdict near it deserves a rerun (the report's"
                        + " declared threshold, which the pair checks and does not set)` |");
        // the pair is a check: a threshold wide enough holds it, and no threshold is read from it
        assertThat(new Results(dir).environment(new Threshold(0.15, "wide"))).contains("A/A check: 1.075 [1.030, 1.120], inside ±15%");
    }
}
