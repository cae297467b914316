package niolab.common.stats;

import java.util.Arrays;

/**
 * 95% intervals for medians from order statistics: sort the n values, and the interval runs from
 * the k-th smallest to the k-th largest.
 *
 * <p>Each value falls below the true median with probability 1/2, so how many do is
 * Binomial(n, 1/2), whatever the noise's shape; k is the largest rank with at most 2.5% chance
 * that k or more values lie on one side of it. The interval therefore covers the median at least
 * 95% of the time by construction (about 96-98%, since ranks are whole), from {@value #MIN_ROUNDS}
 * values on; with fewer it is the range, which covers {@link #coverage(int)}. A percentile
 * bootstrap, used here before, covers less than its nominal 95% with few rounds: too narrow to
 * keep twenty A/A comparisons under a CPU hog to the one false difference in twenty it promised
 * (experiments/exp-noise.md counts them).
 *
 * <p>A comparison of A against B runs in rounds; each round measures both, so a ratio taken
 * within a round cancels whatever the machine did to both during it (a build next door, a
 * frequency step). Hence {@link #medianOfRatios(double[], double[])}: the per-round ratios are
 * the samples, never the two medians divided. Recipe:
 * <pre>
 *   Interval r = MedianInterval.medianOfRatios(ratesB, ratesA);         // B's rate over A's, per round
 *   String words = Comparison.describe(r, Comparison.Quantity.RATE, 0.02);  // "faster by 8% [5%, 11%] (threshold ±2.0%)"
 * </pre>
 */
public final class MedianInterval {
    public static final double LEVEL = 0.95;
    /** The fewest values whose interval reaches {@link #LEVEL}: the range of 5 covers 1 - 2/32 = 94%. */
    public static final int MIN_ROUNDS = 6;

    private MedianInterval() {}

    /** The median of {@code xs} with its order-statistic interval. */
    public static Interval median(double[] xs) {
        if (xs.length == 0) throw new IllegalArgumentException("no samples");
        for (double x : xs) {
            if (!Double.isFinite(x)) throw new IllegalArgumentException("sample " + x + " is not a finite number");
        }
        double[] sorted = xs.clone();
        Arrays.sort(sorted);
        int k = rank(sorted.length);
        return new Interval(Quantiles.quantileOfSorted(sorted, 0.5), sorted[k - 1], sorted[sorted.length - k]);
    }

    /** The median of ratios already paired by the caller (one per round). */
    public static Interval medianOfRatios(double[] ratios) {
        return median(ratios);
    }

    /** The median of the per-round ratios {@code numer[i] / denom[i]}. */
    public static Interval medianOfRatios(double[] numer, double[] denom) {
        return median(ratios(numer, denom));
    }

    /** {@code numer[i] / denom[i]} for each round. */
    public static double[] ratios(double[] numer, double[] denom) {
        if (numer.length != denom.length) {
            throw new IllegalArgumentException(numer.length + " numerators against " + denom.length + " denominators: ratios pair rounds");
        }
        double[] ratios = new double[numer.length];
        for (int i = 0; i < ratios.length; i++) ratios[i] = numer[i] / denom[i];
        return ratios;
    }

    /** k, 1-based: the interval of n values runs from the k-th smallest to the k-th largest (6 and 15 of 20). */
    public static int rank(int n) {
        if (n < 1) throw new IllegalArgumentException("no samples");
        double tail = (1 - LEVEL) / 2;
        // log P(X = j) for X ~ Binomial(n, 1/2), stepped up from j = 0 so that large n cannot underflow
        double logP = -n * Math.log(2);
        double below = 0; // P(X <= j): the chance that the (j+1)-th smallest lies above the median
        int k = 1;
        for (int j = 0; j < n; j++) {
            below += Math.exp(logP);
            if (below > tail) break;
            k = j + 1;
            logP += Math.log((double) (n - j) / (j + 1));
        }
        return Math.min(k, (n + 1) / 2);
    }

    /** The chance that the interval of n values holds the true median: at least 95% from 6 values on. */
    public static double coverage(int n) {
        int k = rank(n);
        double logP = -n * Math.log(2);
        double outside = 0; // P(X <= k - 1), one tail
        for (int j = 0; j < k; j++) {
            outside += Math.exp(logP);
            logP += Math.log((double) (n - j) / (j + 1));
        }
        return 1 - 2 * outside;
    }
}
