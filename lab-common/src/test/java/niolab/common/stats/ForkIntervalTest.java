package niolab.common.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The fork-level interval against synthetic two-level data: each fork (a fresh pair of server
 * processes) shifts the log ratio by its own offset, each round adds its own noise. Seeded, so
 * the rates below are the same on every run; what they show is what the design promises.
 */
class ForkIntervalTest {
    private static final int EXPERIMENTS = 2000;
    private static final int ROUNDS = 10;
    private static final double TRUE_RATIO = 1.05;

    @Test
    void withBetweenForkVarianceDominatingForksCoverAndOneForkDoesNot() {
        double between = 0.05;
        double within = 0.01;
        assertThat(coverage(3, between, within, 1)).as("F = 3").isGreaterThanOrEqualTo(0.90);
        assertThat(coverage(5, between, within, 2)).as("F = 5").isGreaterThanOrEqualTo(0.90);
        assertThat(coverage(1, between, within, 3)).as("one fork describes that fork only").isLessThan(0.70);
    }

    @Test
    void withoutBetweenForkVarianceForksStillCover() {
        assertThat(coverage(3, 0, 0.02, 4)).isGreaterThanOrEqualTo(0.90);
        assertThat(coverage(5, 0, 0.02, 5)).isGreaterThanOrEqualTo(0.90);
        assertThat(coverage(1, 0, 0.02, 6)).as("one fork's rounds are then the whole story").isGreaterThanOrEqualTo(0.90);
    }

    @Test
    void theShareOfVarianceBetweenForksSaysWhereItLives() {
        SplittableRandom random = new SplittableRandom(7);
        assertThat(ForkInterval.of(experiment(5, 0.05, 0.01, random)).betweenShare()).isGreaterThan(0.8);
        assertThat(ForkInterval.of(experiment(5, 0, 0.02, random)).betweenShare()).isLessThan(0.3);
        double[][] exact = {{1.0, 1.1}, {1.2, 1.32}};
        // log ratios: fork means differ by log 1.2, within-fork spread log 1.1 each: MSB = 2 (log 1.2 / 2)^2 * 2, MSW = (log 1.1)^2 / 2
        double lw = Math.log(1.1);
        double lb = Math.log(1.2);
        double msb = 2 * 2 * Math.pow(lb / 2, 2);
        double msw = 2 * 2 * Math.pow(lw / 2, 2) / 2;
        double sb = (msb - msw) / 2;
        assertThat(ForkInterval.betweenShare(exact)).isCloseTo(sb / (sb + msw), Offset.offset(1e-12));
        assertThat(ForkInterval.betweenShare(new double[][] {{1.0, 1.1}})).isNaN();
        assertThat(ForkInterval.betweenShare(new double[][] {{1.0, 1.0}, {1.0, 1.0}})).isZero();
    }

    @Test
    void oneForkIsTheMedianIntervalAndForksAreAGeometricMeanOfMedians() {
        double[] rounds = {1.01, 0.99, 1.02, 1.0, 0.98, 1.03, 1.01};
        ForkInterval one = ForkInterval.of(new double[][] {rounds});
        assertThat(one.ratio()).isEqualTo(MedianInterval.median(rounds));
        assertThat(one.forks()).isEqualTo(1);
        assertThat(one.rounds()).isEqualTo(7);
        ForkInterval two = ForkInterval.of(new double[][] {{1.0, 1.0, 1.0}, {1.21, 1.21, 1.21}});
        assertThat(two.ratio().estimate()).isCloseTo(1.1, Offset.offset(1e-12));
        // half-width t(0.975, 1) * sd / sqrt(2) of the log medians {0, log 1.21}
        double half = StudentT.quantile(0.975, 1) * Math.log(1.21) / Math.sqrt(2) / Math.sqrt(2);
        assertThat(Math.log(two.ratio().high()) - Math.log(1.1)).isCloseTo(half, Offset.offset(1e-9));
        assertThat(two.forks()).isEqualTo(2);
        assertThat(two.rounds()).isEqualTo(6);
    }

    /** The share of EXPERIMENTS whose 95% interval holds TRUE_RATIO. */
    private static double coverage(int forks, double between, double within, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int covered = 0;
        for (int e = 0; e < EXPERIMENTS; e++) {
            if (ForkInterval.of(experiment(forks, between, within, random)).ratio().contains(TRUE_RATIO)) covered++;
        }
        return (double) covered / EXPERIMENTS;
    }

    private static double[][] experiment(int forks, double between, double within, SplittableRandom random) {
        double[][] ratios = new double[forks][ROUNDS];
        for (int f = 0; f < forks; f++) {
            double offset = between * gaussian(random);
            for (int r = 0; r < ROUNDS; r++) ratios[f][r] = TRUE_RATIO * Math.exp(offset + within * gaussian(random));
        }
        return ratios;
    }

    private static double gaussian(SplittableRandom random) {
        // Box-Muller: SplittableRandom has no nextGaussian on JDK 17
        double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
