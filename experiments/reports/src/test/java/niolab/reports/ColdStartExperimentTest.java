package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** exp-cold-start's sentences follow its numbers: a rerun that flips a comparison flips the words. */
class ColdStartExperimentTest {
    /** QPS medians in CONFIGS order: jdk17, jdk25, aot, warm-server, warm, aot-client. */
    private static Report ratios(double... qps) {
        Report out = new Report();
        ColdStartExperiment.ratios(qps, out);
        return out;
    }

    @Test
    void theGapToTheWarmRateIsSplitBetweenServerAndClient() {
        Report clientMostly = ratios(900, 1000, 1600, 1500, 6000, 1200);
        assertThat(clientMostly.values.get("warm_split")).startsWith("Warming the server alone closes 10% of that gap; the other 90%");
        assertThat(clientMostly.values.get("side_verdict")).startsWith("The client's cold start");
        assertThat(ratios(900, 1000, 1600, 5000, 6000, 1200).values.get("side_verdict")).startsWith("The server's cold start");
        assertThat(ratios(900, 1000, 1600, 900, 6000, 1200).values.get("warm_split")).contains("does not raise the rate");
    }

    @Test
    void theAotClaimIsOneAndAHalfTimesJdk25OnThePairedRounds() {
        double[] plain = {1000, 1100, 900, 1000, 1100, 900};
        assertThat(ColdStartExperiment.aotClaim(new double[] {1600, 1760, 1440, 1600, 1760, 1440}, plain))
                .isEqualTo("the lab's claim of 1.5× holds: 1.60× [1.60, 1.60] over 6 paired rounds");
        assertThat(ColdStartExperiment.aotClaim(new double[] {1400, 1540, 1260, 1400, 1540, 1260}, plain)).startsWith("the lab's claim of 1.5× fails");
        assertThat(ColdStartExperiment.aotClaim(new double[] {1400, 1760, 1440, 1400, 1760, 1440}, plain))
                .startsWith("the lab's claim of 1.5× is undecided at this run's precision");
        assertThat(ratios(900, 1000, 900, 1500, 6000, 1200).values.get("aot_verdict")).contains("did not speed");
    }

    @Test
    void fewerRoundsThanAnIntervalNeedsGiveNoDirection() {
        // the committed run's 5 rounds: every one clears the bound, and still the claim takes no side
        double[] plain = {1000, 1100, 900, 1000, 1100};
        assertThat(ColdStartExperiment.aotClaim(new double[] {2000, 2200, 1800, 2000, 2200}, plain))
                .isEqualTo("the lab's claim of 1.5× is undecided, with too few rounds for an interval (5; an interval takes 6): 2.00× [2.00, 2.00] over 5 paired rounds");
        assertThat(ColdStartExperiment.mpClaim(new double[] {900, 950, 1000, 920, 980})).startsWith("the lab's claim of at most 800 ms is undecided, with too few rounds");
        assertThat(sides(new double[] {900, 950, 1000, 900, 950}, new double[] {1300, 1350, 1400, 1300, 1350}).values.get("aot_sides"))
                .startsWith("not told apart from the run with both caches: undecided, with too few rounds for an interval (5; an interval takes 6)");
        Report jit = new Report();
        ColdStartExperiment.jit(Csv.parse("config,round,server_jit_ms\njdk25,1,0\naot,1,90\n", "pairs.csv"), jit);
        assertThat(jit.values.get("jit_verdict")).startsWith("this run cannot say").endsWith("(1; an interval takes 6)");
    }

    @Test
    void theClientsCacheAloneIsComparedWithBoth() {
        double[] clientOnly = {1300, 1350, 1400, 1300, 1350, 1400};
        assertThat(sides(new double[] {900, 950, 1000, 900, 950, 1000}, clientOnly).values.get("aot_sides"))
                .startsWith("faster than with both caches in every round");
        assertThat(sides(new double[] {1400, 1500, 1600, 1400, 1500, 1600}, clientOnly).values.get("aot_sides"))
                .startsWith("not told apart from the run with both caches: their ranges overlap");
        assertThat(sides(new double[] {1500, 1600, 1700, 1500, 1600, 1700}, clientOnly).values.get("aot_sides"))
                .startsWith("slower than with both caches in every round");
        assertThat(ratios(900, 1000, 1400, 1500, 6000, 1300).values.get("aot_client_vs_jdk25")).isEqualTo("1.30×");
    }

    @Test
    void theServersJitIsSaidBusierOnlyWhenItWas() {
        Report busier = new Report();
        ColdStartExperiment.jit(pairs(new int[] {0, 10, 0, 10, 0, 10}, new int[] {20, 30, 20, 30, 20, 30}), busier);
        assertThat(busier.values.get("jit_verdict")).startsWith("its JIT compilers worked more");
        assertThat(busier.values.get("jit_aot")).isEqualTo("25 ms");
        Report same = new Report();
        ColdStartExperiment.jit(pairs(new int[] {10, 10, 10, 10, 10, 10}, new int[] {10, 10, 10, 10, 10, 10}), same);
        assertThat(same.values.get("jit_verdict")).contains("cannot say");
        Report belowTick = new Report();
        ColdStartExperiment.jit(pairs(new int[] {10, 10, 10, 10, 10, 10}, new int[] {15, 15, 15, 15, 15, 15}), belowTick);
        assertThat(belowTick.values.get("jit_verdict")).startsWith("less than one 10 ms tick apart");
        Report fewer = new Report();
        ColdStartExperiment.jit(pairs(new int[] {30, 30, 30, 30, 30, 30}, new int[] {10, 10, 10, 10, 10, 10}), fewer);
        assertThat(fewer.values.get("jit_verdict")).contains("did not work more");
    }

    /** pairs.csv with the server's JIT CPU per round, without the cache and with it. */
    private static Csv pairs(int[] plainMs, int[] cachedMs) {
        StringBuilder csv = new StringBuilder("config,round,server_jit_ms\n");
        for (int i = 0; i < plainMs.length; i++) csv.append("jdk25,").append(i + 1).append(',').append(plainMs[i]).append('\n');
        for (int i = 0; i < cachedMs.length; i++) csv.append("aot,").append(i + 1).append(',').append(cachedMs[i]).append('\n');
        return Csv.parse(csv.toString(), "pairs.csv");
    }

    /** {@link ColdStartExperiment#sides} with the client-cache-only rounds against both caches' rounds (other configurations unused). */
    private static Report sides(double[] both, double[] clientOnly) {
        Report out = new Report();
        double[][] q = new double[ColdStartExperiment.CONFIGS.length][];
        q[2] = both;
        q[5] = clientOnly;
        ColdStartExperiment.sides(q, out);
        return out;
    }

    @Test
    void picocliIsSaidCachedOnlyWhenItsClassesAreNewerThanJava5() {
        Report old = new Report();
        ColdStartExperiment.picocli(49, old);
        assertThat(old.values.get("picocli_verdict")).isEqualTo("picocli's classes stay out of the cache");
        Report rebuilt = new Report();
        ColdStartExperiment.picocli(61, rebuilt);
        assertThat(rebuilt.values.get("picocli_verdict")).isEqualTo("picocli's classes are in the cache");
    }

    /** ColdStartExperiment.ready of a ready.csv whose rows (each with {@code %s} for the configuration) repeat for every one. */
    private static Report ready(String header, String... rowsPerConfig) {
        StringBuilder csv = new StringBuilder(header).append('\n');
        for (String config : ColdStartExperiment.READY_CONFIGS) {
            for (String row : rowsPerConfig) csv.append(String.format(row, config)).append('\n');
        }
        Report out = new Report();
        ColdStartExperiment.ready(Csv.parse(csv.toString(), "ready.csv"), out);
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
        assertThat(ColdStartExperiment.mpClaim(new double[] {600, 650, 700, 620, 680, 640})).startsWith("the lab's claim of at most 800 ms holds");
        assertThat(ColdStartExperiment.mpClaim(new double[] {900, 950, 1000, 920, 980, 940})).startsWith("the lab's claim of at most 800 ms fails");
    }

    @Test
    void resultsWithoutTheWorkersColumnWerePoolsOfFour() {
        Report out = ready("server,config,round,ready_ms,load1", "lt,%s,1,500,1", "mp,%s,1,3000,1", "mp-all-cpus,%s,1,2000,1");
        assertThat(out.values.get("ready_table")).contains("mp, 4 workers (CPU of the server)");
        assertThat(out.values.get("ready_mp_aot")).isEqualTo("3000 ms");
        assertThat(out.values.get("ready_cpu_table")).contains("–");
    }
}
