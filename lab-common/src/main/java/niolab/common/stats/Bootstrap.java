package niolab.common.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Percentile-bootstrap 95% intervals for medians, resampling whole rounds.
 *
 * <p>A comparison of A against B runs in rounds; each round measures both, so a ratio taken
 * within a round cancels whatever the machine did to both during it (a build next door, a
 * frequency step). Hence {@link #medianOfRatios(double[], double[], long)}: the per-round ratios
 * are the samples, never the two medians divided. Recipe:
 * <pre>
 *   Interval r = Bootstrap.medianOfRatios(ratesB, ratesA, seed);   // B's rate over A's, per round
 *   String words = Comparison.describe(r, Comparison.Quantity.RATE); // "faster by 8% [5%, 11%]"
 * </pre>
 * The same seed gives the same interval, so a report regenerates byte for byte.
 */
public final class Bootstrap {
    /** Enough resamples that the 2.5% and 97.5% points move by well under the interval's own width. */
    public static final int RESAMPLES = 10_000;
    public static final double LEVEL = 0.95;

    private Bootstrap() {}

    /** The median of {@code xs} with its bootstrap interval. */
    public static Interval median(double[] xs, long seed) {
        return median(xs, seed, RESAMPLES);
    }

    /** The median of ratios already paired by the caller (one per round). */
    public static Interval medianOfRatios(double[] ratios, long seed) {
        return median(ratios, seed, RESAMPLES);
    }

    /** The median of the per-round ratios {@code numer[i] / denom[i]}, resampling rounds. */
    public static Interval medianOfRatios(double[] numer, double[] denom, long seed) {
        return medianOfRatios(ratios(numer, denom), seed);
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

    static Interval median(double[] xs, long seed, int resamples) {
        if (xs.length == 0) throw new IllegalArgumentException("no samples");
        for (double x : xs) {
            if (!Double.isFinite(x)) throw new IllegalArgumentException("sample " + x + " is not a finite number");
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[] medians = new double[resamples];
        double[] resample = new double[xs.length];
        for (int r = 0; r < resamples; r++) {
            for (int i = 0; i < resample.length; i++) resample[i] = xs[random.nextInt(xs.length)];
            Arrays.sort(resample);
            medians[r] = Quantiles.quantileOfSorted(resample, 0.5);
        }
        Arrays.sort(medians);
        double tail = (1 - LEVEL) / 2;
        double estimate = Quantiles.median(xs);
        // The percentile interval of a median can sit beside the sample median with few rounds; widen to include it.
        double low = Math.min(estimate, Quantiles.quantileOfSorted(medians, tail));
        double high = Math.max(estimate, Quantiles.quantileOfSorted(medians, 1 - tail));
        return new Interval(estimate, low, high);
    }
}
