package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * exp-short-run's headline is the paired design's interval; a figure from the 3 sequential runs
 * per server, which give no interval, says so wherever it stands.
 */
class ShortRunExperimentTest {
    private static final Path EXPERIMENTS = Paths.get("..").toAbsolutePath().normalize();

    @Test
    void thePairedRoundsGiveTheIntervalAndTheSequentialRunsSayTheyHaveNone() {
        Report out = new Report();
        new ShortRunExperiment().generate(new Results(EXPERIMENTS.resolve("results/short-run")), out);
        // the committed run's figures change with every rerun: the shape of each sentence does not
        assertThat(out.values.get("pairs_arch")).containsPattern(
                "^with a cold client, the original write-up's setting: (ET|MP) against LT (faster by [0-9.]+% \\[[0-9.]+%, [0-9.]+%\\]|slower by [0-9.]+% \\[[0-9.]+%, [0-9.]+%\\]"
                        + "|the same within ±[0-9.]+%: .*|undecided at this precision \\(±[0-9.]+%\\)) \\(threshold ±[0-9.]+%\\) \\(\\d+ rounds\\);.*"
                        + "; with the warmed client: (ET|MP) against LT ");
        assertThat(out.values.get("best_qps_line")).matches("(LT|ET|MP) \\(.*; 3 runs, no interval\\)");
        assertThat(out.values.get("best_p99_line")).endsWith("; 3 runs, no interval)");
        assertThat(out.values.get("warm_reading")).endsWith("(3 runs, no interval)");
    }

    /** Per round 1..8, the same QPS (times a drift shared by the round, which pairing cancels). */
    private static java.util.Map<Integer, Double> rounds(double qps) {
        java.util.Map<Integer, Double> m = new java.util.TreeMap<>();
        for (int r = 1; r <= 8; r++) m.put(r, qps * (1 + 0.1 * (r % 3)));
        return m;
    }

    @Test
    void analyseDecidesTheGainsAndTheComparisonsWithLtOnHandMadeRounds() {
        ShortRunExperiment.Data run = ShortRunExperiment.load(new Results(EXPERIMENTS.resolve("results/short-run")));
        // LT's warmed client 3× its cold one (holds the 2× claim), ET's 1.5× (fails it), MP's 2.5×; cold ET as fast as LT, MP 1.2×
        ShortRunExperiment.Pairs pairs = new ShortRunExperiment.Pairs(8, java.util.List.of(rounds(3000), rounds(1500), rounds(3000)),
                java.util.List.of(rounds(1000), rounds(1000), rounds(1200)), 48, 0);
        ShortRunExperiment.Data d = new ShortRunExperiment.Data(run.serial(), run.bench100(), run.sweep(), pairs,
                new double[] {6000, Double.NaN, 3000}, run.syscalls());
        ShortRunExperiment.Findings f = ShortRunExperiment.analyse(d);
        assertThat(f.gains()).extracting(g -> g.claim().verdict()).containsExactly(niolab.common.stats.ClaimVerdict.HOLDS,
                niolab.common.stats.ClaimVerdict.FAILS, niolab.common.stats.ClaimVerdict.HOLDS);
        assertThat(f.cold()).extracting(c -> c.ratio().estimate()).containsExactly(1.0, 1.2);
        assertThat(f.cold()).extracting(ShortRunExperiment.AgainstLt::rounds).containsExactly(8, 8);
        assertThat(f.warmed()).extracting(c -> c.ratio().estimate()).containsExactly(0.5, 1.0);
        // the long run's steady state over the warmed short run's median (3300); none where the long run is missing
        assertThat(f.steadyOverShort()[1]).isNaN();
        assertThat(f.steadyOverShort()[0]).isCloseTo(6000 / 3300.0, org.assertj.core.api.Assertions.within(1e-9));

        ShortRunExperiment.Findings unpaired = ShortRunExperiment.analyse(new ShortRunExperiment.Data(run.serial(), run.bench100(), run.sweep(),
                null, run.longSteady(), run.syscalls()));
        assertThat(unpaired.gains()).isEmpty();
        assertThat(unpaired.cold()).isEmpty();
    }
}
