package niolab.common.stats;

/**
 * The interval of a ratio measured in forks (fresh server processes) of rounds, at the level
 * where the variance lives. A fresh pair of processes differs from the last (JIT decisions,
 * memory layout, the machine's state) by more than one round differs from the next, so an
 * interval of one fork's rounds describes that fork, not the next run (Kalibera and Jones,
 * Rigorous Benchmarking in Reasonable Time, 2013; JMH's forks).
 *
 * <p>The method, stated once ({@link #METHOD}): each fork is summarized by the median of its
 * per-round ratios; with F >= 2 forks the interval is a Student-t interval of the mean of the
 * forks' log-medians with F - 1 degrees of freedom, exponentiated back (so the estimate is the
 * geometric mean of the fork medians); with one fork it is {@link MedianInterval}'s
 * order-statistic interval of that fork's rounds. The level is 95% unless a sequential design
 * asks for a wider one ({@link Sequential}). The share of the variance between forks comes from
 * {@link VarianceComponents}: a share near 1 says more forks buy precision and more rounds do
 * not; near 0, the reverse. {@code logSe} is the standard error of the log estimate with
 * {@code df} degrees of freedom (0: the normal's, for one fork's median), from which
 * {@link #detectable(double)} says what the design could detect.
 *
 * <pre>
 *   ForkInterval r = ForkInterval.of(perForkRatios);                   // ratios[fork][round]
 *   String words = Comparison.describe(r.ratio(), Quantity.RATE, 0.02); // "the same within ±2.0% ..."
 *   double d = r.detectable(0.02);                                      // 0.031: detects ≥3.1% with 90% power
 * </pre>
 */
public record ForkInterval(Interval ratio, int forks, int rounds, double betweenShare, double level, double logSe, int df) {
    public static final String METHOD = "per fork the median of its per-round ratios; across F >= 3 forks a Student-t interval "
            + "of the mean of the forks' log-medians (F - 1 degrees of freedom); with one fork the order-statistic interval of its rounds' median";

    /** The 95% interval. */
    public static ForkInterval of(double[][] ratios) {
        return of(ratios, MedianInterval.LEVEL);
    }

    /**
     * {@code ratios[f]} holds fork f's per-round ratios (any number each, at least one); every ratio
     * positive and finite. {@code level}: the interval's confidence across forks; one fork's
     * order-statistic interval is always {@link MedianInterval#LEVEL}.
     */
    public static ForkInterval of(double[][] ratios, double level) {
        if (!(level > 0 && level < 1)) throw new IllegalArgumentException("level " + level + " is outside (0, 1)");
        int forks = 0;
        int rounds = 0;
        for (double[] fork : ratios) {
            if (fork.length == 0) continue;
            forks++;
            rounds += fork.length;
            for (double r : fork) {
                if (!(r > 0) || !Double.isFinite(r)) throw new IllegalArgumentException("ratio " + r + " is not a positive finite number");
            }
        }
        if (forks == 0) throw new IllegalArgumentException("no rounds");
        if (forks == 1) {
            for (double[] fork : ratios) {
                if (fork.length > 0) return oneFork(fork);
            }
        }
        double[] logMedians = new double[forks];
        int f = 0;
        for (double[] fork : ratios) {
            if (fork.length > 0) logMedians[f++] = Math.log(Quantiles.median(fork));
        }
        double mean = 0;
        for (double y : logMedians) mean += y;
        mean /= forks;
        double ss = 0;
        for (double y : logMedians) ss += (y - mean) * (y - mean);
        double se = Math.sqrt(ss / (forks - 1) / forks);
        double half = StudentT.quantile(1 - (1 - level) / 2, forks - 1) * se;
        Interval interval = new Interval(Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half));
        return new ForkInterval(interval, forks, rounds, betweenShare(ratios), level, se, forks - 1);
    }

    /** One fork: the order-statistic interval, and the median's large-sample standard error, sqrt(pi/2)·sd/sqrt(n), for its power. */
    private static ForkInterval oneFork(double[] fork) {
        double mean = 0;
        for (double r : fork) mean += Math.log(r);
        mean /= fork.length;
        double ss = 0;
        for (double r : fork) ss += (Math.log(r) - mean) * (Math.log(r) - mean);
        double se = fork.length < 2 ? Double.NaN : Math.sqrt(Math.PI / 2) * Math.sqrt(ss / (fork.length - 1) / fork.length);
        return new ForkInterval(MedianInterval.median(fork), 1, fork.length, Double.NaN, MedianInterval.LEVEL, se, 0);
    }

    /** The smallest difference (a fraction) this design detects with 90% power against {@code threshold}; NaN when unknown. */
    public double detectable(double threshold) {
        return Power.detectable(logSe, df, level, threshold);
    }

    /** The smallest slowdown (a fraction) this design calls "slower" with 90% power. */
    public double detectableSlower(double threshold) {
        return Power.detectableSlower(logSe, df, level, threshold);
    }

    /** The smallest speedup (a fraction) this design calls "faster" with 90% power. */
    public double detectableFaster(double threshold) {
        return Power.detectableFaster(logSe, df, level, threshold);
    }

    /** The share of the variance of the log ratios that lies between forks ({@link VarianceComponents#share()}). */
    public static double betweenShare(double[][] ratios) {
        return VarianceComponents.of(ratios).share();
    }
}
