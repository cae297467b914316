package niolab.common.stats;

/** The standard normal distribution's cdf and quantiles: the large-sample limit of {@link StudentT}. */
public final class Normal {
    private Normal() {}

    /** P(Z <= z), from the complementary error function (Numerical Recipes' erfcc, relative error below 1.2e-7). */
    public static double cdf(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.5 * x);
        double erfc = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
                + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
        return z >= 0 ? 1 - erfc / 2 : erfc / 2;
    }

    /** The {@code p}-quantile, by bisection of {@link #cdf}: quantile(0.975) is 1.960. */
    public static double quantile(double p) {
        if (!(p > 0 && p < 1)) throw new IllegalArgumentException("probability " + p + " is outside (0, 1)");
        double lo = -40;
        double hi = 40;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (cdf(mid) < p) lo = mid;
            else hi = mid;
        }
        return (lo + hi) / 2;
    }
}
