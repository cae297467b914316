package niolab.reports;

import java.util.List;
import java.util.Locale;
import niolab.common.stats.Interval;

/** Markdown and number formatting for the experiment reports. */
public final class Md {
    private Md() {
    }

    /** A pipe table; {@code rows} hold already formatted cells; the first column left-aligned, the others right. */
    public static String table(List<String> header, List<List<String>> rows) {
        return table(header, rows, "l" + "r".repeat(header.size() - 1));
    }

    /** A pipe table aligned column by column: {@code align} holds an {@code l} or {@code r} per column. */
    public static String table(List<String> header, List<List<String>> rows, String align) {
        StringBuilder sb = new StringBuilder();
        line(sb, header);
        sb.append('|');
        for (int i = 0; i < header.size(); i++) sb.append(align.charAt(i) == 'r' ? "---:|" : "---|");
        sb.append('\n');
        for (List<String> r : rows) line(sb, r);
        return sb.toString().trim();
    }

    private static void line(StringBuilder sb, List<String> cells) {
        sb.append('|');
        for (String c : cells) sb.append(' ').append(c).append(" |");
        sb.append('\n');
    }

    /** 8109.5 style: one decimal. */
    public static String f1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    public static String f0(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    public static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    public static String f3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /**
     * A ratio with its interval, "1.12× [1.05, 1.20]"; three decimals where the interval is narrower
     * than 0.05, so that "slower by 0.4%" never sits beside "[1.00, 1.00]".
     */
    public static String ratio(Interval i) {
        return fit(i, i.estimate()) + "× [" + edge(i, i.low(), 1) + ", " + edge(i, i.high(), 1) + "]";
    }

    /** An estimate with its interval, "0.97 [0.95, 1.03]", to {@link #ratio}'s decimals, each edge to {@link #edge}'s. */
    public static String interval(Interval i) {
        return interval(i, 1);
    }

    /** The same, each edge shown against {@code bounds} (1 and the threshold's 1 ± t, say). */
    public static String interval(Interval i, double... bounds) {
        return fit(i, i.estimate()) + " [" + edge(i, i.low(), bounds) + ", " + edge(i, i.high(), bounds) + "]";
    }

    /** A ratio with its interval against 1 and 1 ± {@code threshold}, "1.12× [1.05, 1.20]". */
    public static String ratio(Interval i, double threshold) {
        return fit(i, i.estimate()) + "× [" + edge(i, i.low(), 1, 1 - threshold, 1 + threshold) + ", "
                + edge(i, i.high(), 1, 1 - threshold, 1 + threshold) + "]";
    }

    /**
     * An interval's edge {@code v} to {@link #fit}'s decimals, or more where those would round it onto
     * one of the {@code bounds} a verdict compares it with: 0.996 against 1 reads "0.996", never
     * "1.00", so that the reader sees the edge decide. Up to six decimals.
     */
    public static String edge(Interval i, double v, double... bounds) {
        return edge(i.width() >= 0.001 && i.width() < 0.05 ? 3 : 2, v, bounds);
    }

    /** {@code v} to {@code digits} decimals, or more where those would round it onto one of {@code bounds}. */
    public static String edge(int digits, double v, double... bounds) {
        for (double b : bounds) {
            while (digits < 6 && v != b && Double.isFinite(b) && fixed(v, digits).equals(fixed(b, digits))) digits++;
        }
        return fixed(v, digits);
    }

    private static String fixed(double v, int digits) {
        return String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    /** {@code v}, one of {@code i}'s figures, to two decimals, or three where {@code i} is 0.001 to 0.05 wide. */
    public static String fit(Interval i, double v) {
        return i.width() >= 0.001 && i.width() < 0.05 ? f3(v) : f2(v);
    }

    /** A signed percentage: {@code +1.3%}. */
    public static String pct(double v) {
        return String.format(Locale.ROOT, "%+.1f%%", v);
    }

    /** How the best value compares with each other one: {@code +52.8% vs LT, +55.3% vs MP}. */
    public static String versus(double[] v, int best, String[] labels) {
        StringBuilder sb = new StringBuilder();
        for (int a = 0; a < v.length; a++) {
            if (a == best) continue;
            if (sb.length() > 0) sb.append(", ");
            sb.append(pct(Stats.pctDiff(v[best], v[a]))).append(" vs ").append(labels[a]);
        }
        return sb.toString();
    }

    public static String us(double v) {
        return f0(v) + " µs";
    }
}
