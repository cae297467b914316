package niolab.common.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MedianIntervalTest {
    private static final int TRIALS = 2_000;
    private static final int ROUNDS = 20;

    /** Lognormal noise around a known ratio: the interval should contain it at least 95% of the time (95.9% exactly at 20). */
    @Test
    void medianOfRatiosCoversTheTrueRatioAtLeastNinetyFivePercentOfTheTime() {
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
            if (MedianInterval.medianOfRatios(b, a).contains(trueRatio)) covered++;
        }
        // 2,000 trials at 95.9% have a standard deviation of 0.45 points: the band is 4 of them each way
        assertThat(covered / (double) TRIALS).isBetween(0.94, 0.977);
    }

    /** Whatever the noise's shape, and however few the rounds, the simulated coverage matches the binomial's. */
    @Test
    void coverageMatchesTheBinomialForSkewedNoiseAtEveryRoundCount() {
        SplittableRandom data = new SplittableRandom(7);
        for (int n : new int[] {5, 8, 10, 16, 40}) {
            int covered = 0;
            for (int trial = 0; trial < TRIALS; trial++) {
                double[] xs = new double[n];
                for (int i = 0; i < n; i++) xs[i] = 50 * lognormal(data, 0.5); // median exactly 50
                if (MedianInterval.median(xs).contains(50)) covered++;
            }
            assertThat(covered / (double) TRIALS).as("coverage at %d rounds", n).isCloseTo(MedianInterval.coverage(n), within(0.02));
        }
    }

    /** Ranks and coverages checked against the binomial's tables: 6th and 15th of 20 (95.9%), 2nd and 9th of 10 (97.9%). */
    @Test
    void ranksAreTheBinomialsAndReachNinetyFivePercentFromSixRounds() {
        assertThat(MedianInterval.rank(20)).isEqualTo(6);
        assertThat(MedianInterval.coverage(20)).isCloseTo(0.9586, within(0.0001));
        assertThat(MedianInterval.rank(10)).isEqualTo(2);
        assertThat(MedianInterval.coverage(10)).isCloseTo(0.9785, within(0.0001));
        assertThat(MedianInterval.rank(8)).isEqualTo(1);
        assertThat(MedianInterval.coverage(6)).isCloseTo(1 - 2 / 64.0, within(1e-12));
        assertThat(MedianInterval.coverage(5)).isCloseTo(1 - 2 / 32.0, within(1e-12)).isLessThan(MedianInterval.LEVEL);
        assertThat(MedianInterval.rank(1)).isEqualTo(1);
        for (int n = MedianInterval.MIN_ROUNDS; n <= 2_000; n++) {
            assertThat(MedianInterval.coverage(n)).as("coverage at %d", n).isGreaterThanOrEqualTo(MedianInterval.LEVEL);
            // one rank narrower would fall below 95%: the interval is as tight as the guarantee allows
            assertThat(MedianInterval.rank(n) == (n + 1) / 2 || tailOfNextRank(n, MedianInterval.rank(n)) > 0.025).as("rank at %d is the largest", n).isTrue();
        }
    }

    @Test
    void theIntervalRunsFromTheKthSmallestToTheKthLargest() {
        double[] xs = new double[20];
        for (int i = 0; i < xs.length; i++) xs[i] = 20 - i; // 20, 19, ..., 1
        assertThat(MedianInterval.median(xs)).isEqualTo(new Interval(10.5, 6, 15));
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

        Interval paired = MedianInterval.medianOfRatios(b, a);
        Interval unpaired = MedianInterval.medianOfRatios(b, unpairedA);
        assertThat(paired.contains(1.0)).isTrue();
        assertThat(paired.width()).isLessThan(0.03);
        assertThat(unpaired.width()).isGreaterThan(10 * paired.width());
    }

    @Test
    void theIntervalLeavesItsInputAloneAndHoldsTheEstimate() {
        double[] xs = {0.97, 1.02, 0.99, 1.05, 1.01, 0.98, 1.03, 1.00, 0.96, 1.04, 1.02, 0.99};
        double[] copy = xs.clone();
        Interval i = MedianInterval.median(xs);
        assertThat(xs).containsExactly(copy);
        assertThat(MedianInterval.medianOfRatios(xs)).isEqualTo(i);
        assertThat(i.estimate()).isEqualTo(Quantiles.median(xs));
        assertThat(i).isEqualTo(new Interval(1.005, 0.98, 1.03)); // 3rd and 10th of 12 sorted
        assertThat(MedianInterval.median(new double[] {2.0, 2.0, 2.0, 2.0})).isEqualTo(Interval.exactly(2.0));
        assertThat(MedianInterval.median(new double[] {1, 5, 2, 8, 3})).isEqualTo(new Interval(3, 1, 8)); // 5 values: the range
    }

    @Test
    void badSamplesAreRefusedWithAReason() {
        assertThatThrownBy(() -> MedianInterval.median(new double[0])).hasMessageContaining("no samples");
        assertThatThrownBy(() -> MedianInterval.medianOfRatios(new double[] {1, 2}, new double[] {1})).hasMessageContaining("pair rounds");
        assertThatThrownBy(() -> MedianInterval.medianOfRatios(new double[] {1}, new double[] {0})).hasMessageContaining("not a finite number");
    }

    @Test
    void quantilesInterpolateAndSpreadsAreOrdered() {
        double[] xs = {4, 1, 3, 2};
        assertThat(Quantiles.median(xs)).isEqualTo(2.5);
        assertThat(xs).containsExactly(4, 1, 3, 2);
        assertThat(Quantiles.range(xs)).isEqualTo(new Interval(2.5, 1, 4));
        assertThat(Quantiles.interquartile(xs)).isEqualTo(new Interval(2.5, 1.75, 3.25));
    }

    /** P(X <= k) for X ~ Binomial(n, 1/2): one tail of the interval one rank narrower than rank k's. */
    private static double tailOfNextRank(int n, int k) {
        double logP = -n * Math.log(2);
        double sum = 0;
        for (int j = 0; j <= k; j++) {
            sum += Math.exp(logP);
            logP += Math.log((double) (n - j) / (j + 1));
        }
        return sum;
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
