package niolab.common.stats;

/**
 * An estimate with its 95% interval, {@code low <= estimate <= high}: what a run measured and how
 * precisely. Ratios are plain ratios (1.0 = no difference), never percentages.
 */
public record Interval(double estimate, double low, double high) {
    public Interval {
        if (!(low <= high)) throw new IllegalArgumentException("interval [" + low + ", " + high + "] is empty");
    }

    /** An exact value: no noise, as for a count. */
    public static Interval exactly(double value) {
        return new Interval(value, value, value);
    }

    public double width() {
        return high - low;
    }

    public double halfWidth() {
        return width() / 2;
    }

    public boolean contains(double x) {
        return low <= x && x <= high;
    }

    /** The largest distance from {@code x} to either end: how far off {@code x} the truth may still lie. */
    public double reachFrom(double x) {
        return Math.max(Math.abs(high - x), Math.abs(x - low));
    }

    /** The same interval scaled, e.g. by 100 for percent. */
    public Interval times(double factor) {
        return factor >= 0 ? new Interval(estimate * factor, low * factor, high * factor)
                : new Interval(estimate * factor, high * factor, low * factor);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%.4g [%.4g, %.4g]", estimate, low, high);
    }
}
