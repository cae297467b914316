package niolab.common.stats;

/**
 * Where the variance of a comparison's log ratios lives: between forks (a fresh pair of server
 * processes) and within a fork (round to round), from the one-way random-effects ANOVA:
 * {@code within = MSW}, {@code between = max(0, (MSB - MSW) / n0)}, with n0 the rounds per fork
 * (its unbalanced form when forks ran different numbers of rounds). Both are variances of natural
 * logs, so {@code sqrt(within)} of 0.04 reads as "about 4% from round to round".
 *
 * <p>What it is for: the share says whether more forks or more rounds buy precision, and
 * {@link Plan} sizes a design from the two components (Kalibera and Jones, ISMM 2013).
 */
public record VarianceComponents(double between, double within, int forks, int rounds) {
    /** {@code ratios[f]} holds fork f's per-round ratios; empty forks are skipped. NaN components with one fork or no spare round. */
    public static VarianceComponents of(double[][] ratios) {
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
        if (forks < 2 || n - forks < 1) return new VarianceComponents(Double.NaN, Double.NaN, forks, n);
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
        return new VarianceComponents(Math.max(0, (msb - msw) / n0), msw, forks, n);
    }

    /** between / (between + within): near 1, spend repetitions on forks; near 0, on rounds. NaN when unknown. */
    public double share() {
        double total = between + within;
        if (Double.isNaN(total)) return Double.NaN;
        return total == 0 ? 0 : between / total;
    }
}
