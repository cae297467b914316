package niolab.common.stats;

import java.util.Locale;

/**
 * A ratio B/A with its interval, said in words: "faster by 8% [5%, 11%]", "slower by 3% [1%, 5%]",
 * or "no difference this run can resolve (±3%)" when the interval contains 1.
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
    }

    /** Where the whole interval lies against 1. */
    public enum Direction { ABOVE, BELOW, NONE }

    private Comparison() {}

    public static Direction direction(Interval ratio) {
        if (ratio.low() > 1) return Direction.ABOVE;
        if (ratio.high() < 1) return Direction.BELOW;
        return Direction.NONE;
    }

    /** The verdict in words for the ratio B/A of a quantity. */
    public static String describe(Interval ratio, Quantity quantity) {
        Interval percent = new Interval(ratio.estimate() - 1, ratio.low() - 1, ratio.high() - 1).times(100);
        switch (direction(ratio)) {
            case ABOVE:
                return quantity.above + " by " + percentRange(percent);
            case BELOW:
                return quantity.below + " by " + percentRange(percent.times(-1));
            default:
                return "no difference this run can resolve (±" + percent(percent.reachFrom(0), digits(percent)) + ")";
        }
    }

    private static String percentRange(Interval percent) {
        int digits = digits(percent);
        return percent(percent.estimate(), digits) + " [" + percent(percent.low(), digits) + ", " + percent(percent.high(), digits) + "]";
    }

    /** One decimal while the interval is narrower than ten points, so ±1% is not rounded away. */
    private static int digits(Interval percent) {
        return percent.width() < 10 && Math.abs(percent.high()) < 10 && Math.abs(percent.low()) < 10 ? 1 : 0;
    }

    private static String percent(double value, int digits) {
        return String.format(Locale.ROOT, "%." + digits + "f%%", value);
    }
}
