package niolab.common.stats;

import java.util.Locale;

/**
 * How many decimals a printed interval needs so that its deciding edges are seen to decide: an
 * edge of 0.996 against a bound of 1 printed as "1.00" would tell the reader the opposite of the
 * verdict beside it. Digits are added, from the caller's usual number, until every printed value
 * falls on the same side of every printed bound as the value itself (and equals it only when the
 * two are equal), up to {@value #MAX} decimals.
 */
public final class Decimals {
    /** Beyond this a difference is noise in the last bit, not something a reader needs to see decide. */
    public static final int MAX = 6;

    private Decimals() {}

    /** The fewest decimals, at least {@code min}, at which each of {@code values} keeps its order against each of {@code bounds}. */
    public static int needed(int min, double[] values, double... bounds) {
        int d = Math.max(0, min);
        while (d < MAX && !keepsOrder(d, values, bounds)) d++;
        return d;
    }

    /** {@code value} with {@code decimals} decimals, as every caller here prints it. */
    public static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** A ratio interval "0.960 [0.940, 0.996]", at least {@code min} decimals, more while an edge would look like a bound. */
    public static String interval(Interval i, int min, double... bounds) {
        int d = needed(min, new double[] {i.estimate(), i.low(), i.high()}, bounds);
        return fixed(i.estimate(), d) + " [" + fixed(i.low(), d) + ", " + fixed(i.high(), d) + "]";
    }

    private static boolean keepsOrder(int d, double[] values, double[] bounds) {
        for (double v : values) {
            if (!Double.isFinite(v)) continue;
            double pv = Double.parseDouble(fixed(v, d));
            for (double b : bounds) {
                if (!Double.isFinite(b)) continue;
                if (Integer.signum(Double.compare(pv, Double.parseDouble(fixed(b, d)))) != Integer.signum(Double.compare(v, b))) return false;
            }
        }
        return true;
    }
}
