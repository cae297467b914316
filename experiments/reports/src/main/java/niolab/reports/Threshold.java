package niolab.reports;

import niolab.common.stats.Comparison;
import niolab.common.stats.Interval;

/**
 * The smallest difference that matters to a report's comparisons, declared in the experiment's
 * source before any run, with the reason for its size: a ratio within 1 ± {@code value} is "the
 * same", beyond it a direction. It never comes from the data: a margin read from a run's own noise
 * makes "the same" easier the noisier the run (the equivalence test's rule, Schuirmann 1987). A
 * run's A/A pair, where it has one, is a check against this threshold ({@link #aaCheck}), not its source.
 *
 * @param value  a fraction: 0.05 is ±5%
 * @param reason one line: why a difference of this size matters to the report's question
 */
public record Threshold(double value, String reason) {
    public Threshold {
        if (!(value > 0 && value < 1)) throw new IllegalArgumentException("threshold " + value + " is not a fraction in (0, 1)");
        if (reason == null || reason.isBlank()) throw new IllegalArgumentException("a threshold needs its reason");
    }

    /** The threshold of a report that declares none: 2%, the least difference a shared machine's drift leaves readable. */
    static final Threshold DEFAULT = new Threshold(Comparison.MIN_THRESHOLD,
            "the least difference a shared machine's drift leaves readable, for a report that declares none");

    /** A threshold whose reason names its size as {@code {size}} ("5%"), so that the number is written once. */
    static Threshold of(double value, String reason) {
        return new Threshold(value, reason.replace("{size}", size(value)));
    }

    /** "5%". */
    private static String size(double value) {
        double percent = value * 100;
        return (percent == Math.rint(percent) ? Md.f0(percent) : Md.f1(percent)) + "%";
    }

    /** "±5%": the threshold as a report prints it. */
    String percent() {
        return "±" + size(value);
    }

    /** "±5%, fixed before the run: REASON": the threshold and why, for a report's design sentence. */
    String declared() {
        return percent() + ", fixed before the run: " + reason;
    }

    /**
     * An A/A interval (a server against an identical one) read against this threshold, a
     * diagnostic: "1.004 [0.991, 1.017], inside ±2%"; a warning when it reaches beyond, since
     * noise alone then spans a difference that matters and verdicts near the threshold deserve a
     * rerun.
     */
    String aaCheck(Interval aa) {
        String figure = Md.f3(aa.estimate()) + " [" + Md.edge(3, aa.low(), 1) + ", " + Md.edge(3, aa.high(), 1) + "]";
        boolean inside = aa.low() >= 1 - value && aa.high() <= 1 + value;
        return "A/A check: " + figure + (inside ? ", inside " + percent()
                : ", warning: reaches " + Md.f1(aa.reachFrom(1) * 100) + "% from 1, beyond " + percent()
                        + ", so noise alone spans a difference this report counts; a verdict near it deserves a rerun");
    }
}
