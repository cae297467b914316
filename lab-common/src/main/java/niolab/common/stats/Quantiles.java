package niolab.common.stats;

import java.util.Arrays;

/** Medians and quantiles of samples, the way every report computes them (linear interpolation, R type 7). */
public final class Quantiles {
    private Quantiles() {}

    public static double median(double[] xs) {
        return quantile(xs, 0.5);
    }

    /** The q-quantile (0..1) of {@code xs}; the array is not changed. */
    public static double quantile(double[] xs, double q) {
        double[] sorted = xs.clone();
        Arrays.sort(sorted);
        return quantileOfSorted(sorted, q);
    }

    static double quantileOfSorted(double[] sorted, double q) {
        if (sorted.length == 0) throw new IllegalArgumentException("no samples");
        if (q < 0 || q > 1) throw new IllegalArgumentException("quantile " + q + " is outside [0, 1]");
        double pos = q * (sorted.length - 1);
        int i = (int) Math.floor(pos);
        if (i + 1 >= sorted.length) return sorted[sorted.length - 1];
        return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
    }

    /** The interquartile range [p25, p75] around the median: the spread a table shows beside a median. */
    public static Interval interquartile(double[] xs) {
        double[] sorted = xs.clone();
        Arrays.sort(sorted);
        return new Interval(quantileOfSorted(sorted, 0.5), quantileOfSorted(sorted, 0.25), quantileOfSorted(sorted, 0.75));
    }

    /** The full range [min, max] around the median. */
    public static Interval range(double[] xs) {
        double[] sorted = xs.clone();
        Arrays.sort(sorted);
        return new Interval(quantileOfSorted(sorted, 0.5), sorted[0], sorted[sorted.length - 1]);
    }
}
