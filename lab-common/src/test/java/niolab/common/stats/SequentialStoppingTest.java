package niolab.common.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import niolab.common.stats.Comparison.Verdict;
import org.junit.jupiter.api.Test;

/**
 * Optional stopping against seeded simulations of two-level data (each fork shifts the log ratio
 * by its own offset, each round adds its own noise), through the same ForkInterval and verdict
 * code compare runs. What a run of `compare --until-decided` promises: an A/A pair is called
 * faster or slower at most 5% of the time however long it runs, while the naive loop (the
 * fixed 95% interval after every fork) calls one more often, and a true 5% slowdown is called
 * slower within the time a quiet machine allows.
 */
class SequentialStoppingTest {
    private static final int EXPERIMENTS = 2000;
    private static final int ROUNDS = 6;
    private static final double THRESHOLD = 0.02;
    /** A loaded shared machine: about 10.5% slice noise within a fork, 1% between forks. */
    private static final double LOADED_WITHIN = 0.105;
    private static final double LOADED_BETWEEN = 0.01;
    /** A quiet machine: about 4% within, 0.4% between. */
    private static final double QUIET_WITHIN = 0.04;
    private static final double QUIET_BETWEEN = 0.004;
    /** What --max-time 300s buys for two servers: a fork is 6 rounds of two 1 s slices plus about 4 s to start and warm. */
    private static final int FORKS_IN_300_S = 300 / (2 * ROUNDS + 4);

    @Test
    void anAaPairStaysUnderFivePercentFalseCallsWithTheSequentialRuleAndNotWithNaivePeeking() {
        // a 1% threshold on a loaded machine: the interval stays wide against the margin for many looks
        double sequential = falseCalls(true, 0.01, LOADED_WITHIN, LOADED_BETWEEN, 60, 11);
        double naive = falseCalls(false, 0.01, LOADED_WITHIN, LOADED_BETWEEN, 60, 11);
        assertThat(sequential).as("sequential, loaded machine, up to 60 forks").isLessThanOrEqualTo(0.05);
        assertThat(naive).as("the fixed 95% interval after every fork, same data").isGreaterThan(0.05);
        assertThat(falseCalls(true, THRESHOLD, LOADED_WITHIN, LOADED_BETWEEN, 60, 12)).as("sequential, 2%, loaded").isLessThanOrEqualTo(0.05);
        assertThat(falseCalls(true, THRESHOLD, QUIET_WITHIN, QUIET_BETWEEN, FORKS_IN_300_S, 13)).as("sequential, 2%, quiet").isLessThanOrEqualTo(0.05);
    }

    @Test
    void aTrueFivePercentSlowdownIsCalledSlowerWithinTheTimeAQuietMachineAllows() {
        SplittableRandom random = new SplittableRandom(13);
        int slower = 0;
        for (int e = 0; e < EXPERIMENTS; e++) {
            if (run(0.95, THRESHOLD, QUIET_WITHIN, QUIET_BETWEEN, FORKS_IN_300_S, true, random) == Verdict.BELOW) slower++;
        }
        assertThat((double) slower / EXPERIMENTS).as("within %d forks", FORKS_IN_300_S).isGreaterThanOrEqualTo(0.90);
    }

    /** The power a finished run states is what such runs achieve: at the stated difference, about 90% are called. */
    @Test
    void theDetectableDifferenceIsCalledAboutNinetyPercentOfTheTime() {
        SplittableRandom random = new SplittableRandom(14);
        int forks = 10;
        double[] detectable = new double[200];
        for (int i = 0; i < detectable.length; i++) {
            detectable[i] = ForkInterval.of(experiment(1.0, forks, QUIET_WITHIN, QUIET_BETWEEN, random)).detectable(THRESHOLD);
        }
        double d = Quantiles.median(detectable);
        int called = 0;
        for (int e = 0; e < EXPERIMENTS; e++) {
            ForkInterval r = ForkInterval.of(experiment(1 - d, forks, QUIET_WITHIN, QUIET_BETWEEN, random));
            if (Comparison.verdict(r.ratio(), THRESHOLD) == Verdict.BELOW) called++;
        }
        assertThat((double) called / EXPERIMENTS).as("slowdown of %.4f", d).isBetween(0.82, 0.97);
    }

    @Test
    void aPlannedDesignReachesItsPower() {
        SplittableRandom random = new SplittableRandom(15);
        double within = QUIET_WITHIN * QUIET_WITHIN;
        double between = QUIET_BETWEEN * QUIET_BETWEEN;
        Plan plan = Plan.of(new VarianceComponents(between, within, 3, 9), THRESHOLD, 0.05, 4, 2);
        assertThat(plan.reachable()).isTrue();
        assertThat(plan.rounds()).isBetween(Plan.MIN_ROUNDS, Plan.MAX_ROUNDS);
        int called = 0;
        for (int e = 0; e < EXPERIMENTS; e++) {
            double[][] ratios = new double[plan.forks()][plan.rounds()];
            fill(ratios, 0.95, QUIET_WITHIN, QUIET_BETWEEN, random);
            if (Comparison.verdict(ForkInterval.of(ratios).ratio(), THRESHOLD) == Verdict.BELOW) called++;
        }
        assertThat((double) called / EXPERIMENTS).as("%d forks x %d rounds", plan.forks(), plan.rounds()).isGreaterThanOrEqualTo(0.88);
    }

    @Test
    void looksComeAtThreeForksAndThenEachTimeTheForksGrowByHalf() {
        int last = 0;
        StringBuilder looks = new StringBuilder();
        for (int f = 1; f <= 30; f++) {
            if (Sequential.lookDue(f, last)) {
                looks.append(f).append(' ');
                last = f;
            }
        }
        assertThat(looks.toString().trim()).isEqualTo("3 5 8 12 18 27");
        double missed = 0;
        for (int k = 1; k <= 10_000; k++) missed += 1 - Sequential.level(k);
        assertThat(missed).isLessThanOrEqualTo(Sequential.ALPHA);
    }

    private static double falseCalls(boolean sequential, double threshold, double within, double between, int maxForks, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int called = 0;
        for (int e = 0; e < EXPERIMENTS; e++) {
            Verdict v = run(1.0, threshold, within, between, maxForks, sequential, random);
            if (v == Verdict.ABOVE || v == Verdict.BELOW) called++;
        }
        return (double) called / EXPERIMENTS;
    }

    /** One run that adds forks until every verdict decides or maxForks are spent; the last look's verdict. */
    private static Verdict run(double trueRatio, double threshold, double within, double between, int maxForks, boolean sequential,
            SplittableRandom random) {
        double[][] all = experiment(trueRatio, maxForks, within, between, random);
        int lastLook = 0;
        int look = 0;
        Verdict v = Verdict.UNDECIDED;
        for (int f = 1; f <= maxForks; f++) {
            boolean due = sequential ? Sequential.lookDue(f, lastLook) || f == maxForks && f >= Sequential.FIRST : f >= Sequential.FIRST;
            if (!due) continue;
            lastLook = f;
            look++;
            double level = sequential ? Sequential.level(look) : MedianInterval.LEVEL;
            v = Comparison.verdict(ForkInterval.of(Arrays.copyOf(all, f), level).ratio(), threshold);
            if (v != Verdict.UNDECIDED) return v;
        }
        return v;
    }

    private static double[][] experiment(double trueRatio, int forks, double within, double between, SplittableRandom random) {
        double[][] ratios = new double[forks][ROUNDS];
        fill(ratios, trueRatio, within, between, random);
        return ratios;
    }

    private static void fill(double[][] ratios, double trueRatio, double within, double between, SplittableRandom random) {
        for (double[] fork : ratios) {
            double offset = between * gaussian(random);
            for (int r = 0; r < fork.length; r++) fork[r] = trueRatio * Math.exp(offset + within * gaussian(random));
        }
    }

    private static double gaussian(SplittableRandom random) {
        // Box-Muller: SplittableRandom has no nextGaussian on JDK 17
        double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
