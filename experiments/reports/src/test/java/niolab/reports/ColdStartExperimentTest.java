package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** exp-cold-start's sentences follow its numbers: a rerun that flips a comparison flips the words. */
class ColdStartExperimentTest {
    /** The committed run's values, into which a test puts the figures it varies. */
    private static Report committed() {
        return ExperimentReports.compute(Path.of(".."), new ColdStartExperiment());
    }

    /** The report as {@code make reports} writes it from these values and the committed template. */
    private static String rendered(Report out) throws IOException {
        String name = "exp-cold-start.md";
        return out.fill(Files.readString(Path.of("..", "templates", name), StandardCharsets.UTF_8), name);
    }

    /** The report with the QPS medians in CONFIGS order: jdk17, jdk25, aot, warm-server, warm, aot-client. */
    private static String ratios(double... qps) throws IOException {
        Report out = committed();
        ColdStartExperiment.ratios(qps, out);
        return rendered(out);
    }

    @Test
    void theGapToTheWarmRateIsSplitBetweenServerAndClient() throws IOException {
        String clientMostly = ratios(900, 1000, 1600, 1500, 6000, 1200);
        assertThat(clientMostly).contains("Warming the server alone closes 10% of that gap; the other 90%").contains("| 2 | The client's cold start");
        assertThat(ratios(900, 1000, 1600, 5000, 6000, 1200)).contains("| 2 | The server's cold start");
        assertThat(ratios(900, 1000, 1600, 900, 6000, 1200)).contains("Warming the server alone does not raise the rate");
    }

    @Test
    void theAotClaimIsOneAndAHalfTimesJdk25OnThePairedRounds() throws IOException {
        double[] plain = {1000, 1100, 900, 1000, 1100, 900};
        assertThat(ColdStartExperiment.aotWords(ColdStartExperiment.aotClaim(new double[] {1600, 1760, 1440, 1600, 1760, 1440}, plain)))
                .isEqualTo("the lab's claim of 1.5× holds: 1.60× [1.60, 1.60] over 6 paired rounds");
        assertThat(ColdStartExperiment.aotWords(ColdStartExperiment.aotClaim(new double[] {1400, 1540, 1260, 1400, 1540, 1260}, plain)))
                .startsWith("the lab's claim of 1.5× fails");
        assertThat(ColdStartExperiment.aotWords(ColdStartExperiment.aotClaim(new double[] {1400, 1760, 1440, 1400, 1760, 1440}, plain)))
                .startsWith("the lab's claim of 1.5× is undecided at this run's precision");
        assertThat(ColdStartExperiment.aotCase(new double[] {900, 990, 810, 900, 990, 810}, plain)).isEqualTo("not");
        Report out = committed().put("aot_case", "not");
        assertThat(rendered(out)).contains("| 3 | The AOT cache did not speed the run up here |");
    }

    @Test
    void fewerRoundsThanAnIntervalNeedsGiveNoDirection() throws IOException {
        // the committed run's 5 rounds: every one clears the bound, and still the claim takes no side
        double[] plain = {1000, 1100, 900, 1000, 1100};
        assertThat(ColdStartExperiment.aotWords(ColdStartExperiment.aotClaim(new double[] {2000, 2200, 1800, 2000, 2200}, plain)))
                .isEqualTo("the lab's claim of 1.5× is undecided, with too few rounds for an interval (5; an interval takes 6): 2.00× [2.00, 2.00] over 5 paired rounds");
        assertThat(ColdStartExperiment.aotCase(new double[] {2000, 2200, 1800, 2000, 2200}, plain)).isEqualTo("few");
        assertThat(ColdStartExperiment.mpWords(ColdStartExperiment.mpClaim(new double[] {900, 950, 1000, 920, 980})))
                .startsWith("the lab's claim of at most 800 ms is undecided, with too few rounds");
        assertThat(sides(new double[] {900, 950, 1000, 900, 950}, new double[] {1300, 1350, 1400, 1300, 1350}))
                .contains("| 4 | With the client's cache alone the run is not told apart from the run with both caches: undecided, with too few rounds"
                        + " for an interval (5; an interval takes 6)");
        ColdStartExperiment.Jit jit = ColdStartExperiment.jit(Csv.parse("config,round,server_jit_ms\njdk25,1,0\naot,1,90\n", "pairs.csv"));
        assertThat(jit.verdict()).isEqualTo("few");
        Report out = committed().put("jit_case", jit.verdict()).put("jit_too_few", jit.tooFew());
        assertThat(rendered(out)).contains("without it (median, 3.1): this run cannot say whether the cache makes the server's JIT compilers"
                + " work more or less during the run: undecided, with too few rounds for an interval (1; an interval takes 6).");
    }

    @Test
    void theClientsCacheAloneIsComparedWithBoth() throws IOException {
        double[] clientOnly = {1300, 1350, 1400, 1300, 1350, 1400};
        assertThat(sides(new double[] {900, 950, 1000, 900, 950, 1000}, clientOnly)).contains("the run is faster than with both caches in every round");
        assertThat(sides(new double[] {1400, 1500, 1600, 1400, 1500, 1600}, clientOnly))
                .contains("the run is not told apart from the run with both caches: their ranges overlap");
        assertThat(sides(new double[] {1500, 1600, 1700, 1500, 1600, 1700}, clientOnly)).contains("the run is slower than with both caches in every round");
        Report out = new Report();
        ColdStartExperiment.ratios(new double[] {900, 1000, 1400, 1500, 6000, 1300}, out);
        assertThat(out.values.get("aot_client_vs_jdk25")).isEqualTo("1.30×");
    }

    @Test
    void theServersJitIsSaidBusierOnlyWhenItWas() {
        ColdStartExperiment.Jit busier = ColdStartExperiment.jit(pairs(new int[] {0, 10, 0, 10, 0, 10}, new int[] {20, 30, 20, 30, 20, 30}));
        assertThat(busier.verdict()).isEqualTo("more");
        assertThat(busier.cached()).isEqualTo(25);
        assertThat(ColdStartExperiment.jit(pairs(new int[] {10, 10, 10, 10, 10, 10}, new int[] {10, 10, 10, 10, 10, 10})).verdict()).isEqualTo("tick");
        assertThat(ColdStartExperiment.jit(pairs(new int[] {10, 10, 10, 10, 10, 10}, new int[] {15, 15, 15, 15, 15, 15})).verdict()).isEqualTo("tick");
        assertThat(ColdStartExperiment.jit(pairs(new int[] {30, 30, 30, 30, 30, 30}, new int[] {10, 10, 10, 10, 10, 10})).verdict()).isEqualTo("not-more");
    }

    @Test
    void eachJitCaseHasItsSentence() throws IOException {
        assertThat(rendered(committed().put("jit_case", "more"))).contains("(median, 3.1): its JIT compilers worked more during the run");
        assertThat(rendered(committed().put("jit_case", "tick"))).contains("(median, 3.1): less than one 10 ms tick apart");
        assertThat(rendered(committed().put("jit_case", "not-more"))).contains("(median, 3.1): its JIT compilers did not work more");
    }

    /** pairs.csv with the server's JIT CPU per round, without the cache and with it. */
    private static Csv pairs(int[] plainMs, int[] cachedMs) {
        StringBuilder csv = new StringBuilder("config,round,server_jit_ms\n");
        for (int i = 0; i < plainMs.length; i++) csv.append("jdk25,").append(i + 1).append(',').append(plainMs[i]).append('\n');
        for (int i = 0; i < cachedMs.length; i++) csv.append("aot,").append(i + 1).append(',').append(cachedMs[i]).append('\n');
        return Csv.parse(csv.toString(), "pairs.csv");
    }

    /** The report with the client-cache-only rounds against both caches' rounds (other configurations as committed). */
    private static String sides(double[] both, double[] clientOnly) throws IOException {
        double[][] q = new double[ColdStartExperiment.CONFIGS.length][];
        q[2] = both;
        q[5] = clientOnly;
        Report out = committed().put("aot_sides_case", ColdStartExperiment.sides(q)).put("aot_sides_too_few", ColdStartExperiment.tooFew(clientOnly, both));
        return rendered(out);
    }

    @Test
    void picocliIsSaidCachedOnlyWhenItsClassesAreNewerThanJava5() throws IOException {
        assertThat(rendered(committed().put("picocli_old", true))).contains("| 5 | picocli's classes stay out of the cache |");
        assertThat(rendered(committed().put("picocli_old", false))).contains("| 5 | picocli's classes are in the cache |");
    }

    /** ColdStartExperiment.ready of a ready.csv whose rows (each with {@code %s} for the configuration) repeat for every one. */
    private static Report ready(String header, String... rowsPerConfig) {
        StringBuilder csv = new StringBuilder(header).append('\n');
        for (String config : ColdStartExperiment.READY_CONFIGS) {
            for (String row : rowsPerConfig) csv.append(String.format(row, config)).append('\n');
        }
        Report out = new Report();
        Csv ready = Csv.parse(csv.toString(), "ready.csv");
        ColdStartExperiment.ready(ready, ColdStartExperiment.ready(ready), out);
        return out;
    }

    @Test
    void readyTimesAreGivenPerWorkerCountAndTheTargetIsThePoolOfFour() {
        Report out = ready("server,workers,config,round,ready_ms,cpu_ms,load1", "lt,1,%s,1,500,300,1", "mp,2,%s,1,600,700,1",
                "mp-all-cpus,2,%s,1,550,700,1", "mp,4,%s,1,900,1300,1", "mp-all-cpus,4,%s,1,700,1300,1");
        assertThat(out.values.get("ready_table")).contains("mp, 2 workers (CPU of the server)").contains("mp, 4 workers (every CPU)");
        assertThat(out.values.get("ready_cpu_table")).contains("| 1300 |");
        assertThat(out.values.get("mp_by_workers")).isEqualTo("2 workers: 600 ms (700 ms of CPU); 4 workers: 900 ms (1300 ms of CPU)");
        // one start per configuration: no interval, so the claim is open either way
        assertThat(out.values.get("mp_target_mp")).startsWith("the lab's claim of at most 800 ms is undecided, with too few rounds for an interval (1;");
        assertThat(ColdStartExperiment.mpWords(ColdStartExperiment.mpClaim(new double[] {600, 650, 700, 620, 680, 640})))
                .startsWith("the lab's claim of at most 800 ms holds");
        assertThat(ColdStartExperiment.mpWords(ColdStartExperiment.mpClaim(new double[] {900, 950, 1000, 920, 980, 940})))
                .startsWith("the lab's claim of at most 800 ms fails");
    }

    @Test
    void resultsWithoutTheWorkersColumnWerePoolsOfFour() {
        Report out = ready("server,config,round,ready_ms,load1", "lt,%s,1,500,1", "mp,%s,1,3000,1", "mp-all-cpus,%s,1,2000,1");
        assertThat(out.values.get("ready_table")).contains("mp, 4 workers (CPU of the server)");
        assertThat(out.values.get("ready_mp_aot")).isEqualTo("3000 ms");
        assertThat(out.values.get("ready_cpu_table")).contains("–");
    }
}
