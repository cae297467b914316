package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import niolab.common.results.BenchComparison;
import niolab.common.results.ResultsJson;
import niolab.common.stats.Interval;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-vt on a tiny fixture: ratios are paired by round from the slices (compare's and the C
 * client's alike), the targets get verdicts against 1.25, 0.7 and 1.2, a knob is compared with
 * plain vt, and a measure left out of the run says so instead of showing zeros.
 */
class VtExperimentTest {
    private static final Path EXPERIMENTS = Paths.get("..").toAbsolutePath().normalize();
    private static final int ROUNDS = 8;

    @TempDir
    Path dir;

    private Path results;
    /** The compare runs the fixture wrote, by file. */
    private final Map<String, BenchComparison> written = new java.util.HashMap<>();

    @BeforeEach
    void writeRun() throws Exception {
        results = dir.resolve("results/vt");
        Files.createDirectories(results);
        Files.createDirectories(dir.resolve("templates"));
        Files.copy(EXPERIMENTS.resolve("templates/exp-vt.md"), dir.resolve("templates/exp-vt.md"));
        Files.writeString(results.resolve("env.json"), "{\"date\":\"d\",\"cpu\":\"c\",\"cores\":2,\"memory\":\"m\",\"kernel\":\"k\",\"jdk\":\"j\","
                + "\"java_opts\":\"\",\"server_cpu\":\"0\",\"client_cpu\":\"1\",\"ulimit_n\":\"1024\",\"ip_local_port_range\":\"1 2\",\"tcp_tw_reuse\":\"2\",\"commit\":\"x\"}");
        Files.writeString(results.resolve("servers.csv"), "name,protocol,arch,jvm_options,server_options\nlt,http,lt,,\nvt,http,vt,,\n"
                + "vt-poller1,http,vt,-Djdk.pollerMode=1,\n");
        // ping: vt costs 1.5x lt's CPU in every round (fails 1.25); the knob costs as much as vt
        write("ping.json", new String[] {"lt", "vt", "vt-poller1"}, new double[] {100_000, 80_000, 80_000}, new double[] {8, 12, 12});
        // echo: vt serves 0.8x lt's rate in every round (holds 0.7); the knob 1.1x vt's
        write("echo.json", new String[] {"lt", "vt", "vt-poller1"}, new double[] {100_000, 80_000, 88_000}, new double[] {8, 9, 9});
        // short: lt costs 1.1x c's CPU (holds 1.2)
        write("short.json", new String[] {"c", "lt"}, new double[] {10_000, 9_000}, new double[] {40, 44});
        StringBuilder c = new StringBuilder("round,position,server,rate\n");
        for (int r = 1; r <= ROUNDS; r++) {
            double drift = 1 + 0.05 * (r % 3);
            c.append(r).append(",0,lt,").append(150_000 * drift).append('\n').append(r).append(",1,vt,").append(64_500 * drift).append('\n');
        }
        c.append(ROUNDS + 1).append(",0,lt,150000\n").append(ROUNDS + 1).append(",1,vt,\n"); // a failed slice: left out
        Files.writeString(results.resolve("echo-c.csv"), c);
    }

    /** A compare file with every server at its rate and CPU in every round, times a drift shared by the round. */
    private void write(String file, String[] servers, double[] rates, double[] cpus) throws Exception {
        List<BenchComparison.Slice> slices = new ArrayList<>();
        List<BenchComparison.Server> list = new ArrayList<>();
        List<BenchComparison.ServerSummary> sums = new ArrayList<>();
        for (int i = 0; i < servers.length; i++) {
            list.add(new BenchComparison.Server(servers[i], "127.0.0.1:1", 1L, null));
            sums.add(new BenchComparison.ServerSummary(servers[i], ROUNDS, 0, rates[i], rates[i], rates[i], rates[i], rates[i], cpus[i], 100.0));
        }
        for (int r = 1; r <= ROUNDS; r++) {
            double drift = 1 + 0.1 * (r % 4);
            for (int i = 0; i < servers.length; i++) {
                slices.add(new BenchComparison.Slice(r, i, servers[i], 1000, 0, 1, rates[i] / drift, 50.0, 100.0, cpus[i] * drift, false));
            }
        }
        BenchComparison c = new BenchComparison("echo-bench", 2, BenchComparison.COMMAND, null, null, list, slices,
                new BenchComparison.Summary(sums, List.of()));
        Files.writeString(results.resolve(file), ResultsJson.compact(c));
        written.put(file, c);
    }

    private String render() throws Exception {
        Map<Path, String> files = ExperimentReports.render(dir, new VtExperiment());
        return files.get(Paths.get("exp-vt.md"));
    }

    @Test
    void targetsGetVerdictsFromRatiosPairedByRound() throws Exception {
        String md = render();
        assertThat(md).doesNotContain("{{");
        assertThat(md).contains("| vt's server CPU per keep-alive /ping within 1.25× lt's (echo-bench compare) | 1.50 | [1.50, 1.50] | 8 | ≤ 1.25 | fails |");
        assertThat(md).contains("| vt's keep-alive echo rate at 50 connections at least 0.7× lt's (echo-bench compare) | 0.80 | [0.80, 0.80] | 8 | ≥ 0.70 | holds |");
        // the C client's rounds: 0.43 in every round whatever the drift; the round with a failed slice is left out
        assertThat(md).contains("| vt's keep-alive echo rate at 50 connections at least 0.7× lt's (the C keepalive-client) | 0.43 | [0.43, 0.43] | 8 | ≥ 0.70 | fails |");
        assertThat(md).contains("| lt's server CPU per short connection within 1.2× c's (echo-bench compare, serial) | 1.10 | [1.10, 1.10] | 8 | ≤ 1.20 | holds |");
        assertThat(md).contains("Of the lab's 4 claims checked on this run, 2 hold, 2 fail and 0 are undecided");
    }

    @Test
    void eachKnobIsComparedWithPlainVt() throws Exception {
        String md = render();
        assertThat(md).contains("`vt-poller1` rate / vt 1.10 [1.10, 1.10]: faster by 10");
        assertThat(md).contains("`vt-poller1` server CPU per request / vt 1.00 [1.00, 1.00]: the same within ±5.0%");
        assertThat(md).contains("`vt-poller1` (`-Djdk.pollerMode=1`)");
    }

    @Test
    void analyseDecidesTheClaimsAndTheSidesOnHandMadeData() {
        // the fixture's compare runs, the C client's 8 rounds at 0.43 and an exp-architectures interval of [0.70, 0.90]
        double[][] c = {{43, 43, 43, 43, 43, 43, 43, 43}, {100, 100, 100, 100, 100, 100, 100, 100}};
        VtExperiment.Data d = new VtExperiment.Data(null, null, written.get("ping.json"), written.get("echo.json"), written.get("short.json"), c,
                new Interval(0.8, 0.7, 0.9), null);
        VtExperiment.Findings f = VtExperiment.analyse(d);
        assertThat(f.claims()).extracting(Claim::verdict).containsExactly(niolab.common.stats.ClaimVerdict.FAILS,
                niolab.common.stats.ClaimVerdict.HOLDS, niolab.common.stats.ClaimVerdict.FAILS, niolab.common.stats.ClaimVerdict.HOLDS);
        // echo-bench's 0.80 lies within exp-architectures' interval, the C client's 0.43 below it
        assertThat(f.sides()).extracting(VtExperiment.Side::relation).containsExactly(VtExperiment.Relation.OVERLAPS, VtExperiment.Relation.APART);
        assertThat(f.echoC().estimate()).isEqualTo(0.43, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(f.forks()).isZero();
    }

    @Test
    void withoutExpArchitecturesResultsTheReportSaysSo() throws Exception {
        String md = render();
        // the fixture has no results/architectures beside it: the report says so instead of quoting a figure
        assertThat(md).contains("with echo-bench vt/lt is 0.80 [0.80, 0.80], and exp-architectures has no committed result to compare with;"
                + " with the C client vt/lt is 0.43 [0.43, 0.43], and exp-architectures");
    }

    @Test
    void aMeasureLeftOutSaysSo() throws Exception {
        Files.delete(results.resolve("short.json"));
        Files.delete(results.resolve("echo-c.csv"));
        String md = render();
        assertThat(md).contains("### 3.4 Short connections (a fresh connection per request)\n\nNot measured in this run.");
        assertThat(md).contains("the C keepalive-client\n\nNot measured in this run.");
        assertThat(md).contains("Of the lab's 2 claims");
        assertThat(md).contains("The same driven by wrk (one thread), lt and vt only:\n\nNot measured in this run.");
    }

    @Test
    void exp_architecturesFigureIsItsCommittedInterval() throws Exception {
        // computed from exp-architectures' committed results, not quoted: the figure its own claims table prints
        Interval arch = VtExperiment.architecturesEcho(new Results(EXPERIMENTS.resolve("results/vt")));
        assertThat(arch).isNotNull();
        String[] parts = Md.interval(arch).split(" ", 2);
        String claim = Files.readAllLines(EXPERIMENTS.resolve("exp-architectures.md")).stream()
                .filter(l -> l.contains("vt serves at least 0.7× lt's req/s")).findFirst().orElseThrow();
        assertThat(claim).contains("| " + parts[0] + " | " + parts[1] + " |");
    }

    @Test
    void intervalsAreComparedWithIntervals() {
        Interval arch = new Interval(0.551, 0.518, 0.561);
        VtExperiment.Side apart = VtExperiment.side("c", new Interval(0.63, 0.61, 1.03), arch);
        assertThat(apart.relation()).isEqualTo(VtExperiment.Relation.APART);
        VtExperiment.Side overlapping = VtExperiment.side("c", new Interval(0.56, 0.50, 0.87), arch);
        assertThat(overlapping.relation()).isEqualTo(VtExperiment.Relation.OVERLAPS);
        assertThat(VtExperiment.side("c", new Interval(0.43, 0.42, 0.44), null).relation()).isEqualTo(VtExperiment.Relation.NO_ARCHITECTURES);
    }

    @Test
    void eachClientsCaseIsItsRelationOrAbsent() {
        Interval arch = new Interval(0.551, 0.518, 0.561);
        Report out = new Report();
        VtExperiment.gap(java.util.List.of(VtExperiment.side("c", new Interval(0.63, 0.61, 1.03), arch)), arch, out);
        // echo-bench not measured: its case is absent, and there is no second side to join
        assertThat(out.values()).containsEntry("gap_eb", "absent").containsEntry("gap_c", "apart").containsEntry("gap_c_ratio", "0.63 [0.61, 1.03]")
                .containsEntry("gap_measured", "true").containsEntry("gap_both", "false").containsEntry("architectures_echo", "0.551 [0.518, 0.561]");
        Report none = new Report();
        VtExperiment.gap(java.util.List.of(), null, none);
        assertThat(none.values()).containsEntry("gap_measured", "false").containsEntry("gap_eb", "absent").containsEntry("gap_c", "absent");
    }
}
