package niolab.bench.report;

import java.util.Arrays;

/** The few statistics the reports compute: mean, median, spread, relative difference. */
public final class Stats {
    private Stats() {
    }

    public static double mean(double[] v) {
        if (v.length == 0) return Double.NaN;
        double s = 0;
        for (double x : v) s += x;
        return s / v.length;
    }

    public static double median(double[] v) {
        if (v.length == 0) return Double.NaN;
        double[] c = v.clone();
        Arrays.sort(c);
        int n = c.length;
        return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    }

    /** Max minus min (the seed's 极差). */
    public static double spread(double[] v) {
        if (v.length == 0) return Double.NaN;
        double lo = Double.MAX_VALUE, hi = -Double.MAX_VALUE;
        for (double x : v) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        return hi - lo;
    }

    /** How much {@code a} differs from {@code b}, in percent of {@code b}. */
    public static double pctDiff(double a, double b) {
        return b == 0 ? Double.NaN : (a - b) / b * 100;
    }

    /** Index of the best value: the highest when {@code higherIsBetter}, else the lowest. */
    public static int best(double[] v, boolean higherIsBetter) {
        int b = 0;
        for (int i = 1; i < v.length; i++) {
            if (higherIsBetter ? v[i] > v[b] : v[i] < v[b]) b = i;
        }
        return b;
    }
}
