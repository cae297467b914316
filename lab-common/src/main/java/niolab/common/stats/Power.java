package niolab.common.stats;

/**
 * What a design could detect: the smallest true difference that its interval, at its own level
 * and precision, lies wholly beyond the threshold for in {@value #TARGET_PERCENT}% of runs.
 *
 * <p>In logs, a true ratio exp(d) with d below log(1 - t) is called "slower" when the upper edge
 * mean + q·se falls below log(1 - t); the mean scatters around d with the same standard error, so
 * the call has power p once |d| - |log(1 - t)| reaches (q + q_p)·se, with q the interval's
 * critical value and q_p the p-quantile of the same t distribution (the normal's for a median of
 * one fork's rounds). The same for "faster" above log(1 + t); the larger of the two is stated, so
 * that "detects ≥3.1%" holds both ways.
 */
public final class Power {
    /** The power every statement here is made at. */
    public static final double TARGET = 0.90;
    static final int TARGET_PERCENT = 90;

    private Power() {}

    /**
     * The smallest difference (a fraction: 0.031 is 3.1%) detected with {@link #TARGET} power by an
     * interval of level {@code level} whose log-scale standard error is {@code se} with {@code df}
     * degrees of freedom ({@code df} infinite or 0 for the normal), against {@code threshold}.
     */
    public static double detectable(double se, double df, double level, double threshold) {
        return Math.max(detectableSlower(se, df, level, threshold), detectableFaster(se, df, level, threshold));
    }

    /** The smallest slowdown (a fraction below 1: 0.031 is a ratio of 0.969) called "slower" with {@link #TARGET} power. */
    public static double detectableSlower(double se, double df, double level, double threshold) {
        return 1 - Math.exp(Math.log(1 - threshold) - reach(se, df, level));
    }

    /** The smallest speedup (a fraction: 0.031 is a ratio of 1.031) called "faster" with {@link #TARGET} power. */
    public static double detectableFaster(double se, double df, double level, double threshold) {
        return Math.exp(Math.log(1 + threshold) + reach(se, df, level)) - 1;
    }

    /** How far beyond the threshold, in logs, the truth must lie: the interval's half-width plus the spread power asks for. */
    private static double reach(double se, double df, double level) {
        if (!(se >= 0) || !Double.isFinite(se)) return Double.NaN;
        return (critical(1 - (1 - level) / 2, df) + critical(TARGET, df)) * se;
    }

    /** The chance that a true ratio {@code trueRatio} is called beyond {@code threshold} by such an interval (normal approximation to the spread). */
    public static double of(double trueRatio, double se, double df, double level, double threshold) {
        double q = critical(1 - (1 - level) / 2, df);
        double d = Math.log(trueRatio);
        double margin = d < 0 ? Math.log(1 - threshold) - d : d - Math.log(1 + threshold);
        if (se == 0) return margin > 0 ? 1 : 0;
        return df > 0 && Double.isFinite(df) ? StudentT.cdf(margin / se - q, df) : Normal.cdf(margin / se - q);
    }

    static double critical(double p, double df) {
        return df > 0 && Double.isFinite(df) ? StudentT.quantile(p, df) : Normal.quantile(p);
    }
}
