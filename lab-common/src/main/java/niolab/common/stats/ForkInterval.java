package niolab.common.stats;

/**
 * The interval of a ratio measured in forks (fresh server processes) of rounds, at the level
 * where the variance lives. A fresh pair of processes differs from the last (JIT decisions,
 * memory layout, the machine's state) by more than one round differs from the next, so an
 * interval of one fork's rounds describes that fork, not the next run (Kalibera and Jones,
 * Rigorous Benchmarking in Reasonable Time, 2013; JMH's forks).
 *
 * <p>The method, stated once ({@link #METHOD}): each fork is summarized by the median of its
 * per-round ratios; with F >= 2 forks the interval is a Student-t 95% interval of the mean of the
 * forks' log-medians with F - 1 degrees of freedom, exponentiated back (so the estimate is the
 * geometric mean of the fork medians); with one fork it is {@link MedianInterval}'s
 * order-statistic interval of that fork's rounds. The share of the variance between forks comes
 * from one-way random-effects variance components on the per-round log ratios: a share near 1
 * says more forks buy precision and more rounds do not; near 0, the reverse.
 *
 * <pre>
 *   ForkInterval r = ForkInterval.of(perForkRatios);                   // ratios[fork][round]
 *   String words = Comparison.describe(r.ratio(), Quantity.RATE, 0.02); // "the same within ±2.0% ..."
 * </pre>
 */
public record ForkInterval(Interval ratio, int forks, int rounds, double betweenShare) {
    public static final String METHOD = "per fork the median of its per-round ratios; across F >= 2 forks a Student-t 95% interval "
            + "of the mean of the forks' log-medians (F - 1 degrees of freedom); with one fork the order-statistic interval of its rounds' median";

    /** {@code ratios[f]} holds fork f's per-round ratios (any number each, at least one); every ratio positive and finite. */
    public static ForkInterval of(double[][] ratios) {
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
                if (fork.length > 0) return new ForkInterval(MedianInterval.median(fork), 1, rounds, Double.NaN);
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
        double half = StudentT.quantile(1 - (1 - MedianInterval.LEVEL) / 2, forks - 1) * Math.sqrt(ss / (forks - 1) / forks);
        Interval interval = new Interval(Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half));
        return new ForkInterval(interval, forks, rounds, betweenShare(ratios));
    }

    /**
     * sigma_b^2 / (sigma_b^2 + sigma_w^2) of the log ratios, from the one-way ANOVA's mean squares:
     * sigma_w^2 = MSW, sigma_b^2 = max(0, (MSB - MSW) / n0), with n0 the rounds per fork (its
     * unbalanced form when forks ran different numbers of rounds). NaN with one fork, or with no
     * round left over for the within-fork variance.
     */
    public static double betweenShare(double[][] ratios) {
        int forks = 0;
        int n = 0;
        double grand = 0;
        double sumSquaredSizes = 0;
        for (double[] fork : ratios) {
            if (fork.length == 0) continue;
            forks++;
            n += fork.length;
            sumSquaredSizes += (double) fork.length * fork.length;
            for (double r : fork) grand += Math.log(r);
        }
        if (forks < 2 || n - forks < 1) return Double.NaN;
        grand /= n;
        double ssb = 0;
        double ssw = 0;
        for (double[] fork : ratios) {
            if (fork.length == 0) continue;
            double m = 0;
            for (double r : fork) m += Math.log(r);
            m /= fork.length;
            ssb += fork.length * (m - grand) * (m - grand);
            for (double r : fork) ssw += (Math.log(r) - m) * (Math.log(r) - m);
        }
        double msb = ssb / (forks - 1);
        double msw = ssw / (n - forks);
        double n0 = (n - sumSquaredSizes / n) / (forks - 1);
        double between = Math.max(0, (msb - msw) / n0);
        double total = between + msw;
        return total == 0 ? 0 : between / total;
    }
}
