package niolab.common.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BootstrapTest {
    private static final int TRIALS = 400;
    private static final int ROUNDS = 20;

    /** Lognormal noise around a known ratio: a 95% interval should contain it in about 95% of runs. */
    @Test
    void medianOfRatiosCoversTheTrueRatioAboutNinetyFivePercentOfTheTime() {
        double trueRatio = 1.07;
        SplittableRandom data = new SplittableRandom(42);
        int covered = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            double[] a = new double[ROUNDS];
            double[] b = new double[ROUNDS];
            for (int i = 0; i < ROUNDS; i++) {
                double drift = lognormal(data, 0.3);
                a[i] = 100_000 * drift * lognormal(data, 0.05);
                b[i] = 100_000 * trueRatio * drift * lognormal(data, 0.05);
            }
            if (Bootstrap.median(Bootstrap.ratios(b, a), trial, 2_000).contains(trueRatio)) covered++;
        }
        assertThat(covered / (double) TRIALS).isBetween(0.90, 0.99);
    }

    @Test
    void medianCoversTheTrueMedianOfASkewedDistribution() {
        SplittableRandom data = new SplittableRandom(7);
        int covered = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            double[] xs = new double[ROUNDS];
            for (int i = 0; i < ROUNDS; i++) xs[i] = 50 * lognormal(data, 0.5); // median exactly 50
            if (Bootstrap.median(xs, trial, 2_000).contains(50)) covered++;
        }
        assertThat(covered / (double) TRIALS).isBetween(0.90, 0.99);
    }

    /** A drift shared by both servers in a round cancels in the per-round ratio, not across rounds. */
    @Test
    void pairingCancelsASharedPerRoundDrift() {
        SplittableRandom data = new SplittableRandom(3);
        double[] a = new double[ROUNDS];
        double[] b = new double[ROUNDS];
        for (int i = 0; i < ROUNDS; i++) {
            double drift = lognormal(data, 0.4); // the machine's state: rates move 40% between rounds
            a[i] = 100_000 * drift * lognormal(data, 0.01);
            b[i] = 100_000 * drift * lognormal(data, 0.01);
        }
        double[] unpairedA = a.clone();
        shuffle(unpairedA, new SplittableRandom(11)); // the same numbers, pairs broken

        Interval paired = Bootstrap.medianOfRatios(b, a, 1);
        Interval unpaired = Bootstrap.medianOfRatios(b, unpairedA, 1);
        assertThat(paired.contains(1.0)).isTrue();
        assertThat(paired.width()).isLessThan(0.03);
        assertThat(unpaired.width()).isGreaterThan(10 * paired.width());
    }

    @Test
    void theSameSeedGivesTheSameInterval() {
        double[] xs = {0.97, 1.02, 0.99, 1.05, 1.01, 0.98, 1.03, 1.00, 0.96, 1.04, 1.02, 0.99};
        assertThat(Bootstrap.median(xs, 5)).isEqualTo(Bootstrap.median(xs, 5));
        assertThat(Bootstrap.medianOfRatios(xs, 5)).isEqualTo(Bootstrap.median(xs, 5));
        assertThat(Bootstrap.median(xs, 5).estimate()).isEqualTo(Quantiles.median(xs));
    }

    @Test
    void theIntervalHoldsTheEstimateAndShrinksToAPointWithoutNoise() {
        Interval none = Bootstrap.median(new double[] {2.0, 2.0, 2.0, 2.0}, 1);
        assertThat(none).isEqualTo(Interval.exactly(2.0));
        Interval some = Bootstrap.median(new double[] {1, 5, 2, 8, 3, 9, 4}, 1);
        assertThat(some.contains(some.estimate())).isTrue();
        assertThat(some.low()).isGreaterThanOrEqualTo(1);
        assertThat(some.high()).isLessThanOrEqualTo(9);
    }

    @Test
    void badSamplesAreRefusedWithAReason() {
        assertThatThrownBy(() -> Bootstrap.median(new double[0], 1)).hasMessageContaining("no samples");
        assertThatThrownBy(() -> Bootstrap.medianOfRatios(new double[] {1, 2}, new double[] {1}, 1)).hasMessageContaining("pair rounds");
        assertThatThrownBy(() -> Bootstrap.medianOfRatios(new double[] {1}, new double[] {0}, 1)).hasMessageContaining("not a finite number");
    }

    @Test
    void quantilesInterpolateAndSpreadsAreOrdered() {
        double[] xs = {4, 1, 3, 2};
        assertThat(Quantiles.median(xs)).isEqualTo(2.5);
        assertThat(xs).containsExactly(4, 1, 3, 2);
        assertThat(Quantiles.range(xs)).isEqualTo(new Interval(2.5, 1, 4));
        assertThat(Quantiles.interquartile(xs)).isEqualTo(new Interval(2.5, 1.75, 3.25));
    }

    private static double lognormal(SplittableRandom random, double sigma) {
        return Math.exp(sigma * gaussian(random));
    }

    /** Box-Muller, since SplittableRandom has no nextGaussian on JDK 17. */
    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    private static void shuffle(double[] xs, SplittableRandom random) {
        for (int i = xs.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            double t = xs[i];
            xs[i] = xs[j];
            xs[j] = t;
        }
    }
}
