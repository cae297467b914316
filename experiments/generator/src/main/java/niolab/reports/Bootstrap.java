package niolab.reports;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Percentile bootstrap of a median: 95% intervals from a few rounds. Stands in for
 * {@code niolab.common.stats.Bootstrap} (lab-common, issue 23) until that lands. The seed is
 * fixed by the caller, so a report regenerates byte for byte from the same results.
 */
final class Bootstrap {
    static final int RESAMPLES = 4000;

    private Bootstrap() {
    }

    /** The median of {@code numer[i] / denom[i]} (paired by round) with its 95% interval. */
    static Interval medianOfRatios(double[] numer, double[] denom, long seed) {
        if (numer.length != denom.length) throw new IllegalArgumentException(numer.length + " numerators, " + denom.length + " denominators");
        double[] ratios = new double[numer.length];
        for (int i = 0; i < ratios.length; i++) ratios[i] = numer[i] / denom[i];
        return median(ratios, seed);
    }

    /** The median of {@code xs} with its 95% percentile-bootstrap interval. */
    static Interval median(double[] xs, long seed) {
        if (xs.length == 0) throw new IllegalArgumentException("no values");
        SplittableRandom random = new SplittableRandom(seed);
        double[] medians = new double[RESAMPLES], resample = new double[xs.length];
        for (int b = 0; b < RESAMPLES; b++) {
            for (int i = 0; i < xs.length; i++) resample[i] = xs[random.nextInt(xs.length)];
            medians[b] = Stats.median(resample);
        }
        Arrays.sort(medians);
        return new Interval(Stats.median(xs), medians[(int) (RESAMPLES * 0.025)], medians[(int) (RESAMPLES * 0.975) - 1]);
    }
}
