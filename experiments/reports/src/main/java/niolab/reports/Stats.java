package niolab.reports;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Every statistic the reports and {@code summarize} compute, in one place: sum, mean,
 * median, spread, relative difference, the best of a set. Medians, not means, summarise
 * repeated rounds: one disturbed round moves a mean but not a median.
 */
public final class Stats {
    private Stats() {
    }

    public static double sum(double[] v) {
        double s = 0;
        for (double x : v) s += x;
        return s;
    }

    public static double mean(double[] v) {
        return v.length == 0 ? Double.NaN : sum(v) / v.length;
    }

    public static double median(double[] v) {
        if (v.length == 0) return Double.NaN;
        double[] c = v.clone();
        Arrays.sort(c);
        int n = c.length;
        return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    }

    /** Max minus min (the original write-up's 极差). */
    public static double spread(double[] v) {
        if (v.length == 0) return Double.NaN;
        double lo = Double.MAX_VALUE, hi = -Double.MAX_VALUE;
        for (double x : v) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        return hi - lo;
    }

    /** The spread in proportion to the median: how far apart repeated rounds of one point are. */
    public static double relativeSpread(double[] v) {
        return spread(v) / median(v);
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

    /** The keys whose value is at least {@code min}, the largest value first: the rows worth a table. */
    public static List<String> keysAtLeast(Map<String, Double> values, double min) {
        List<String> keys = new ArrayList<>(values.keySet());
        keys.removeIf(k -> values.get(k) < min);
        keys.sort((x, y) -> Double.compare(values.get(y), values.get(x)));
        return keys;
    }
}
