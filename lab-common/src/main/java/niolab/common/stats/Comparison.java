package niolab.common.stats;

/**
 * A ratio B/A with its interval, said in words against a threshold t (a fraction: 0.02 is ±2%)
 * fixed before the data: the smallest difference that matters. "faster by 8.0% [5.0%, 11%]
 * (threshold ±2.0%)" only when the whole interval lies beyond 1 + t (or below 1 - t: "slower
 * by"); "the same within ±2.0%: [-1.2%, +0.8%]" when the whole interval lies inside
 * [1 - t, 1 + t], an equivalence test (Schuirmann's two one-sided tests), with the direction
 * added when the interval also excludes 1 ("the same within ±2.0%: slower by 0.8% [0.3%, 1.4%]");
 * otherwise "undecided at this precision (±5.3%)". The threshold never comes from the run's own
 * noise: a noisier run would then find "the same" easier. An A/A pair is a check of the run, not
 * its margin. Interval edges are printed with the digits that show them decide ({@link Decimals}).
 */
public final class Comparison {
    /** Which way a ratio above 1 reads, per quantity. */
    public enum Quantity {
        /** Requests per second: more is faster. */
        RATE("faster", "slower"),
        /** CPU time per request: more is costlier. */
        COST("costlier", "cheaper"),
        /** A latency such as p99: more is higher. */
        LATENCY("higher", "lower");

        final String above;
        final String below;

        Quantity(String above, String below) {
            this.above = above;
            this.below = below;
        }

        /** The word for a ratio above 1: "faster", "costlier", "higher". */
        public String above() {
            return above;
        }

        /** The word for a ratio below 1: "slower", "cheaper", "lower". */
        public String below() {
            return below;
        }
    }

    /** Where the whole interval lies against 1. */
    public enum Direction { ABOVE, BELOW, NONE }

    /** The four outcomes of a ratio against a threshold. */
    public enum Verdict {
        /** The whole interval lies above 1 + t. */
        ABOVE,
        /** The whole interval lies below 1 - t. */
        BELOW,
        /** The whole interval lies inside [1 - t, 1 + t]: equivalent within the threshold. */
        SAME,
        /** Neither: the interval is too wide for this threshold. */
        UNDECIDED
    }

    /** The default threshold: below 2% a shared machine's drift decides. */
    public static final double MIN_THRESHOLD = 0.02;

    private Comparison() {}

    /** Where the whole interval lies against 1 ± {@code threshold}. */
    public static Verdict verdict(Interval ratio, double threshold) {
        checkThreshold(threshold);
        if (ratio.low() > 1 + threshold) return Verdict.ABOVE;
        if (ratio.high() < 1 - threshold) return Verdict.BELOW;
        if (ratio.low() >= 1 - threshold && ratio.high() <= 1 + threshold) return Verdict.SAME;
        return Verdict.UNDECIDED;
    }

    /** An A/A interval's floor: how far from 1 it reaches, the difference that noise alone showed. */
    public static double floor(Interval aa) {
        return aa.reachFrom(1);
    }

    /**
     * The former default rule, the larger of {@link #MIN_THRESHOLD} and the A/A floor, which let a
     * noisier run call "the same" more easily; kept only for exp-noise's account of how that rule
     * behaved. {@code aa} null when none was measured.
     */
    public static double threshold(Interval aa) {
        return aa == null ? MIN_THRESHOLD : Math.max(MIN_THRESHOLD, floor(aa));
    }

    /** The verdict in words for the ratio B/A of a quantity against {@code threshold}, the threshold on the line. */
    public static String describe(Interval ratio, Quantity quantity, double threshold) {
        Verdict v = verdict(ratio, threshold);
        double est = (ratio.estimate() - 1) * 100;
        double low = (ratio.low() - 1) * 100;
        double high = (ratio.high() - 1) * 100;
        // the bounds go through the same arithmetic as the edges, so that an edge on a bound prints on it
        double upper = (1 + threshold - 1) * 100;
        double lower = (1 - threshold - 1) * 100;
        int base = digits(new Interval(est, low, high));
        switch (v) {
            case ABOVE: {
                int d = Decimals.needed(base, new double[] {est, low, high}, upper, 0);
                return quantity.above + " by " + range(est, low, high, d) + thresholdNote(threshold, d);
            }
            case BELOW: {
                int d = Decimals.needed(base, new double[] {-est, -high, -low}, -lower, 0);
                return quantity.below + " by " + range(-est, -high, -low, d) + thresholdNote(threshold, d);
            }
            case SAME: {
                int d = Decimals.needed(Math.max(1, base), new double[] {low, high}, lower, upper, 0);
                String within = "the same within ±" + Decimals.fixed(upper, d) + "%: ";
                // an equivalence that also excludes 1 still has a direction, known to its interval
                String note = thresholdNote(threshold, d);
                if (low > 0) return within + quantity.above + " by " + range(est, low, high, d) + note;
                if (high < 0) return within + quantity.below + " by " + range(-est, -high, -low, d) + note;
                return within + "[" + signed(low, d) + "%, " + signed(high, d) + "%]" + note;
            }
            default: {
                double reach = Math.max(Math.abs(low), Math.abs(high));
                int d = Decimals.needed(base, new double[] {reach}, upper);
                return "undecided at this precision (±" + Decimals.fixed(reach, d) + "%)" + thresholdNote(threshold, d);
            }
        }
    }

    private static String thresholdNote(double threshold, int digits) {
        return " (threshold ±" + Decimals.fixed(threshold * 100, Math.max(1, digits)) + "%)";
    }

    private static String range(double est, double low, double high, int d) {
        return Decimals.fixed(est, d) + "% [" + Decimals.fixed(low, d) + "%, " + Decimals.fixed(high, d) + "%]";
    }

    private static String signed(double percent, int d) {
        String s = Decimals.fixed(percent, d);
        return s.startsWith("-") ? s : "+" + s;
    }

    private static void checkThreshold(double threshold) {
        if (!(threshold >= 0 && Double.isFinite(threshold))) throw new IllegalArgumentException("threshold " + threshold + " is not a non-negative fraction");
    }

    public static Direction direction(Interval ratio) {
        if (ratio.low() > 1) return Direction.ABOVE;
        if (ratio.high() < 1) return Direction.BELOW;
        return Direction.NONE;
    }

    /** One decimal while the interval is narrower than ten points, so that a width of 1% is not rounded away. */
    private static int digits(Interval percent) {
        return percent.width() < 10 ? 1 : 0;
    }
}
