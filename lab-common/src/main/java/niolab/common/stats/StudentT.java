package niolab.common.stats;

/**
 * Student's t distribution: its quantiles, for an interval of a mean of few values (one per
 * fork) whose spread is estimated from those same values. Computed from the regularized
 * incomplete beta function (a continued fraction, as in Numerical Recipes' betacf) and inverted
 * by bisection: exact to far more digits than any interval here is printed with.
 */
public final class StudentT {
    private StudentT() {}

    /** The {@code p}-quantile (0 < p < 1) of t with {@code df} degrees of freedom: {@code quantile(0.975, 2)} is 4.303. */
    public static double quantile(double p, double df) {
        if (!(p > 0 && p < 1)) throw new IllegalArgumentException("probability " + p + " is outside (0, 1)");
        if (!(df > 0)) throw new IllegalArgumentException("degrees of freedom " + df + " must be positive");
        if (p == 0.5) return 0;
        if (p < 0.5) return -quantile(1 - p, df);
        // a sequential run and its simulations ask for the same few quantiles again and again
        if (QUANTILES.size() > 4096) QUANTILES.clear();
        return QUANTILES.computeIfAbsent(new Key(p, df), k -> search(k.p, k.df));
    }

    private record Key(double p, double df) {}

    private static final java.util.Map<Key, Double> QUANTILES = new java.util.concurrent.ConcurrentHashMap<>();

    private static double search(double p, double df) {
        double lo = 0;
        double hi = 1;
        while (cdf(hi, df) < p && hi < 1e12) hi *= 2;
        // the cdf is monotone: 200 halvings reach the last bit of a double
        for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
            double mid = (lo + hi) / 2;
            if (cdf(mid, df) < p) lo = mid;
            else hi = mid;
        }
        return (lo + hi) / 2;
    }

    /** P(T <= t) for t with {@code df} degrees of freedom. */
    public static double cdf(double t, double df) {
        double tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
        return t >= 0 ? 1 - tail : tail;
    }

    /** I_x(a, b). */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) return 0;
        if (x >= 1) return 1;
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
        // the continued fraction converges fast on this side of the mean; use the symmetry on the other
        if (x < (a + 1) / (a + b + 2)) return front * betaFraction(x, a, b) / a;
        return 1 - front * betaFraction(1 - x, b, a) / b;
    }

    private static double betaFraction(double x, double a, double b) {
        final double tiny = 1e-300;
        double qab = a + b;
        double qap = a + 1;
        double qam = a - 1;
        double c = 1;
        double d = 1 - qab * x / qap;
        if (Math.abs(d) < tiny) d = tiny;
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= 1000; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) d = tiny;
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) c = tiny;
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) d = tiny;
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) c = tiny;
            d = 1 / d;
            double delta = d * c;
            h *= delta;
            if (Math.abs(delta - 1) < 1e-15) break;
        }
        return h;
    }

    /** ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients: about 15 significant digits). */
    static double logGamma(double x) {
        if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        double[] g = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
                12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
        x -= 1;
        double sum = g[0];
        for (int i = 1; i < g.length; i++) sum += g[i] / (x + i);
        double t = x + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
