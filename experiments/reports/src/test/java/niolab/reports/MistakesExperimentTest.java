package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchReport;
import niolab.common.results.ResultsJson;
import niolab.common.stats.ClaimVerdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-mistakes: the machine was shared only when its load says so; every count comes from its
 * lines; and every comparison of a rate, a latency or CPU per request is a three-valued claim on
 * the paired rounds of a compare, or says that the results predate it.
 */
class MistakesExperimentTest {
    /** The results of a short run (CMP_ROUNDS=8 CMP_SLICE=0.25s) on a loaded machine: a fixture, not a finding. */
    private static final Path SMOKE = Path.of("src", "test", "resources", "mistakes-smoke");
    private static final String[] COMPARES = {"standing-write", "keys-not-removed", "keys-not-removed-50", "blocking-on-loop-lt",
        "blocking-on-loop-et", "nagle-lt", "nagle-et"};

    /** The committed results' counts, without any compare: what a run from before the paired design left. */
    private static Results countsOnly(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(SMOKE)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (Files.isRegularFile(f) && !name.startsWith("compare-")) Files.copy(f, dir.resolve(name));
            }
        }
        return new Results(dir);
    }

    /**
     * A compare of correct against broken: the broken server's rate is {@code rateFactor} of the
     * correct one's and its CPU per request the inverse, while the machine drifts by up to 40%
     * between rounds (pairing cancels it); the broken p50 is {@code brokenP50Us}.
     */
    private static void writeCompare(Path dir, String scenario, int rounds, double rateFactor, double correctRate, double brokenP50Us)
            throws IOException {
        List<BenchComparison.Server> servers = List.of(new BenchComparison.Server("correct", "127.0.0.1:1", 1L, null),
                new BenchComparison.Server("broken", "127.0.0.1:2", 2L, null));
        List<BenchComparison.Slice> slices = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            double drift = 1 + 0.4 * Math.sin(round);
            double wobble = 1 + 0.01 * Math.cos(3 * round); // a little noise of the ratio itself
            double correct = correctRate * drift, broken = correct * rateFactor * wobble;
            slices.add(new BenchComparison.Slice(round, round % 2, "correct", Math.round(correct), 0, 1.0, correct, 200.0, 900.0, 20.0, false));
            slices.add(new BenchComparison.Slice(round, 1 - round % 2, "broken", Math.round(broken), 0, 1.0, broken, brokenP50Us * wobble,
                    brokenP50Us * 2, 20.0 / (rateFactor * wobble), false));
        }
        List<BenchComparison.ServerSummary> summaries = List.of(
                new BenchComparison.ServerSummary("correct", rounds, 0, correctRate, correctRate * 0.6, correctRate * 1.4, correctRate * 0.8,
                        correctRate * 1.2, 20.0, 900.0),
                new BenchComparison.ServerSummary("broken", rounds, 0, correctRate * rateFactor, correctRate * rateFactor * 0.6,
                        correctRate * rateFactor * 1.4, correctRate * rateFactor * 0.8, correctRate * rateFactor * 1.2, 20.0 / rateFactor,
                        brokenP50Us * 2));
        BenchReport.Environment env = new BenchReport.Environment("h", 2, "Linux", "k", "amd64", "j", "vm", "2026-12-02T03:00:00Z", "1", "1");
        BenchComparison.Config config = new BenchComparison.Config("correct broken", "echo-bench", "echo", null, 50, 1, true, 1, 0, 64, rounds,
                1.0, 2.0, 7);
        Files.writeString(dir.resolve("compare-" + scenario + ".json"), ResultsJson.compact(new BenchComparison(BenchReport.TOOL,
                BenchReport.SCHEMA, BenchComparison.COMMAND, config, env, servers, slices, new BenchComparison.Summary(summaries, List.of()))),
                StandardCharsets.UTF_8);
    }

    /** The words the template says of a comparison the results predate. */
    private static final String PREDATES = "not measured, as these results predate the paired comparison that `make exp-mistakes` now runs";
    private static final Pattern TARGET = Pattern.compile("(?m)^(At 50 keep-alive connections and no quiet ones|The lab's target \\().*$");

    /** The report as {@code make reports} writes it from these values and the committed template. */
    private static String rendered(Report out) throws IOException {
        out.put("env", "").put("threshold", MistakesExperiment.THRESHOLD.declared());
        String name = "exp-mistakes.md";
        return out.fill(Files.readString(Path.of("..", "templates", name), StandardCharsets.UTF_8), name);
    }

    private static Report generated(Results r) {
        Report out = new Report();
        new MistakesExperiment().generate(r, out);
        return out;
    }

    /** The sentence on the lab's target, as the report's 3.12 says it. */
    private static String targetSentence(String report) {
        Matcher m = TARGET.matcher(report);
        assertThat(m.find()).as("the target's sentence").isTrue();
        return m.group();
    }

    @Test
    void resultsFromBeforeThePairedDesignClaimNoDirectionInRatesLatenciesOrCpu(@TempDir Path dir) throws IOException {
        Results r = countsOnly(dir);
        assertThat(MistakesExperiment.analyse(MistakesExperiment.load(r)).claims().all()).isEmpty();
        Report out = generated(r);
        String md = rendered(out);
        assertThat(targetSentence(md)).contains(PREDATES);
        assertThat(md).contains("_The rates, latencies and CPU per request of these results are " + PREDATES + "._")
                .contains("at 20 connections (medians over the slices):\nlt: " + PREDATES + "; et: " + PREDATES + ".");
        // the counts stay: empty reads per request, keys per select
        assertThat(out.values.get("keys_not_removed_table")).contains("keys handled per select");
        assertThat(out.values.get("blocking_on_loop_table")).doesNotContain("req/s");
    }

    @Test
    void aClearlySlowerMistakeIsCalledSlowerAndEveryClaimHolds(@TempDir Path dir) throws IOException {
        Results r = countsOnly(dir);
        for (String c : COMPARES) {
            boolean blocking = c.startsWith("blocking"), nagle = c.startsWith("nagle");
            writeCompare(dir, c, c.endsWith("-50") ? 20 : 8, blocking ? 0.01 : nagle ? 0.005 : 0.5, 40000, nagle ? 44000 : 300);
        }
        MistakesExperiment.Findings f = MistakesExperiment.analyse(MistakesExperiment.load(r));
        assertThat(f.claims().target().verdict()).isEqualTo(ClaimVerdict.HOLDS);
        assertThat(f.claims().all()).hasSize(8).allMatch(c -> c.verdict() == ClaimVerdict.HOLDS);
        Report out = generated(r);
        String md = rendered(out);
        assertThat(targetSentence(md)).contains("slower by").contains("(20 paired rounds)").endsWith(" holds on this run.");
        assertThat(out.values.get("claims_summary")).isEqualTo("Of the lab's 8 claims checked on this run, 8 hold, 0 fail and 0 are undecided"
                + " at this run's precision");
        assertThat(out.values.get("keys_not_removed_compare_design")).contains("8 rounds of 1.00 s slices");
        assertThat(md).contains("(medians of the slices' p50):\nlt: p50 44.0 ms against 200 µs");
    }

    @Test
    void aMistakeThatCostsNothingIsUndecidedAndOneThatHelpsFails(@TempDir Path dir) throws IOException {
        Results r = countsOnly(dir);
        for (String c : COMPARES) writeCompare(dir, c, 20, 1.0, 40000, 300);
        writeCompare(dir, "keys-not-removed", 20, 1.2, 40000, 300);
        MistakesExperiment.Findings f = MistakesExperiment.analyse(MistakesExperiment.load(r));
        assertThat(f.claims().target().verdict()).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(f.claims().keysRate().verdict()).isEqualTo(ClaimVerdict.FAILS);
        Report out = generated(r);
        assertThat(targetSentence(rendered(out))).contains("the same within ±5.0%").containsPattern(" is undecided at this run's"
                + " precision \\(its design decides a figure [0-9.]+% or more from the bound with 90% power\\) on this run\\.$");
        // faster and cheaper: the claims that it is slower and costlier fail; 40,000 req/s is no cap of 1000 (fails), nor is 0.3 ms a delayed ACK
        assertThat(out.values.get("claims_table")).contains("| `keys-not-removed`, one busy connection beside 50 quiet: broken's rate / correct's | 1.199 | [1.192, 1.206] |")
                .containsPattern("\\| `blocking-on-loop` \\(lt\\): broken's median rate, req/s \\| [0-9.]+ \\| \\[[0-9., ]+\\] \\| 20 \\| ≤ 1000.00 \\| fails \\|");
        assertThat(out.values.get("claims_summary")).isEqualTo("Of the lab's 8 claims checked on this run, 0 hold, 6 fail and 2 are undecided"
                + " at this run's precision");
    }

    /** The smoke run's own compares, as echo-bench wrote them: every compared scenario gets its table and its claims. */
    @Test
    void aSmokeRunsComparesBecomeTablesAndClaims() throws IOException {
        Report out = generated(new Results(SMOKE));
        String md = rendered(out);
        assertThat(out.values.get("target_compare_design")).contains("8 rounds of 0.25 s slices");
        assertThat(out.values.get("target_compare_table")).contains("| broken |");
        assertThat(targetSentence(md)).contains("(8 paired rounds)");
        assertThat(out.values.get("claims_summary")).startsWith("Of the lab's 8 claims checked on this run");
        assertThat(md).contains(" on lt, where the claim of at least 40 ms ");
    }

    @Test
    void theHerdSentenceFollowsTheCounts() throws IOException {
        assertThat(MistakesExperiment.herdMore(3.83, 1.53, 4.26, 1.76)).isEqualTo("all");
        assertThat(MistakesExperiment.herdMore(1.5, 1.53, 1.7, 1.76)).isEqualTo("none");
        assertThat(MistakesExperiment.herdMore(3.83, 1.53, 1.7, 1.76)).isEqualTo("one");
        Report out = generated(new Results(SMOKE));
        out.put("herd_more_case", "all").put("herd_more_counts", "3.83 against 1.53 wakeups per connection on lt, 4.26 against 1.76 on et");
        assertThat(rendered(out)).contains("a shared listener woke the loops more often per connection than a listener per loop (3.83 against 1.53");
        out.put("herd_more_case", "none");
        assertThat(rendered(out)).contains("a shared listener woke the loops no more often");
        out.put("herd_more_case", "one");
        assertThat(rendered(out)).contains("than a listener per loop on one arch only (");
    }

    @Test
    void aLoadAboveTheCpuCountIsASharedMachine() throws IOException {
        Report out = generated(new Results(SMOKE));
        out.put("load_shared", true).put("load1", "19.31").put("cores", "2");
        assertThat(rendered(out)).contains("The machine was not quiet: its 1-minute load average was 19.31");
        out.put("load_shared", false).put("load1", "0.63");
        assertThat(rendered(out)).contains("The machine was quiet: its 1-minute load average was 0.63 when the run began, on 2 CPUs.");
    }

    /** A small no-linger.csv: every number the report says of it is counted from its lines. */
    @Test
    void noLingerCountsThe431sTheClientNeverSawBySizeAndServer(@TempDir Path dir) throws IOException {
        StringBuilder csv = new StringBuilder("arch,variant,head_bytes,tries,write_failed,saw_431,then_eof,then_reset\n");
        for (String arch : new String[] {"lt", "et"}) {
            for (int i = 0; i < 4; i++) csv.append(arch).append(",correct,300000,1,0,1,1,0\n");
            // broken, 300 KB: two resets with no 431, one 431 after a failed write, one clean
            for (String t : new String[] {"1,0,0,1", "0,0,0,1", "1,1,0,1", "0,1,1,0"}) csv.append(arch).append(",broken,300000,1,").append(t).append('\n');
            for (int i = 0; i < 2; i++) csv.append(arch).append(",broken,20000,1,0,1,1,0\n");
            for (int i = 0; i < 2; i++) csv.append(arch).append(",correct,20000,1,0,1,1,0\n");
        }
        Files.writeString(dir.resolve("no-linger.csv"), csv);
        Files.writeString(dir.resolve("counters-no-linger-et-correct.txt"), "counters: accepts=6 closes=6 linger_closes=6 linger_bytes=900000\n");
        Results r = new Results(dir);
        List<MistakesExperiment.LingerRow> rows = MistakesExperiment.lingerRows(MistakesExperiment.loadLingerTries(r));
        Report out = generated(new Results(SMOKE));
        MistakesExperiment.renderLinger(rows, MistakesExperiment.lingerTotals(rows, MistakesExperiment.loadLingerCloses(r)), out);
        String md = rendered(out);
        String unseen = "431 never seen (by a client that stops at its first error) in ";
        assertThat(md).contains("et without the linger: " + unseen + "3 of 6 tries (50%), 3 ended by a reset, 0 lingering closes;")
                .contains("with it: " + unseen + "0 of 6 tries (0%), 0 ended by a reset, 6 lingering closes.");
        assertThat(out.values.get("no_linger_table")).contains("| et | broken | 300 KB | 4 | 2 | 2 | 3 (75%) | 3 |")
                .contains("| et | broken | 20 KB | 2 | 0 | 0 | 0 (0%) | 0 |");
        assertThat(md).contains("| `no-linger` | lt | HTTP heads").contains("| `no-linger` | et | HTTP heads");
    }

    @Test
    void resultsFromBeforeTheNoLingerScenarioSaySo(@TempDir Path dir) throws IOException {
        Results r = new Results(dir);
        assertThat(MistakesExperiment.loadLingerTries(r)).isNull();
        Report out = generated(new Results(SMOKE));
        MistakesExperiment.renderLinger(null, null, out);
        String md = rendered(out);
        assertThat(md).contains("lt without the linger: not measured in this run;").doesNotContain("| `no-linger` | lt | HTTP heads");
    }
}
