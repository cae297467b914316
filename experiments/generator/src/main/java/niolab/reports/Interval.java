package niolab.reports;

/**
 * A measured quantity with its 95% interval. Stands in for {@code niolab.common.stats.Interval}
 * (lab-common, issue 23's statistics library) until that lands; same shape, same meaning.
 */
record Interval(double estimate, double low, double high) {
    /** A figure counted on the run, not estimated from rounds: its interval is itself. */
    static Interval exact(double v) {
        return new Interval(v, v, v);
    }

    /** The interval's width relative to its estimate, in percent either side: ±3% for [0.97, 1.03] around 1. */
    double halfWidthPct() {
        return (high - low) / 2 / Math.abs(estimate) * 100;
    }
}
