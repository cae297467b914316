package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;
import niolab.common.stats.Power;

/**
 * One of the lab's claims, checked on a run: a quantity measured with its 95% interval, from
 * that quantity's own rounds (a CPU ratio's from the rounds' CPU ratios), against the range the
 * lab claims for it. The range's bounds are declared in the experiment's source before any run,
 * each with its reason, and decide both ways alike: a claim holds when the whole interval lies in
 * the range, fails when the whole interval lies outside it, and is otherwise undecided at the run's
 * precision. No margin widens either side, so noise never helps a claim, nor shields one from failing.
 *
 * <p>{@code rounds} is how many rounds the interval comes from; 0 marks a figure counted on
 * the run (errors, connections), whose interval is itself; one round gives no interval at all.
 */
record Claim(String statement, Interval measured, int rounds, double low, double high, ForkInterval design) {
    static Claim atLeast(String statement, Interval measured, int rounds, double bound) {
        return new Claim(statement, measured, rounds, bound, Double.POSITIVE_INFINITY, null);
    }

    static Claim atMost(String statement, Interval measured, int rounds, double bound) {
        return new Claim(statement, measured, rounds, Double.NEGATIVE_INFINITY, bound, null);
    }

    /** A two-sided claim: the quantity within [low, high]. */
    static Claim within(String statement, Interval measured, int rounds, double low, double high) {
        return new Claim(statement, measured, rounds, low, high, null);
    }

    /** A claim on an interval whose design is known ({@code design}): an undecided one then says what the run could decide. */
    static Claim atLeast(String statement, ForkInterval design, int rounds, double bound) {
        return new Claim(statement, design.ratio(), rounds, bound, Double.POSITIVE_INFINITY, design);
    }

    static Claim atMost(String statement, ForkInterval design, int rounds, double bound) {
        return new Claim(statement, design.ratio(), rounds, Double.NEGATIVE_INFINITY, bound, design);
    }

    static Claim within(String statement, ForkInterval design, int rounds, double low, double high) {
        return new Claim(statement, design.ratio(), rounds, low, high, design);
    }

    /** {@link #ratio} with its design: the same interval, and its standard error for what it could detect. */
    static ForkInterval paired(double[] numer, double[] denom) {
        return CompareRun.forkLevel(numer, denom, new int[numer.length]);
    }

    /** {@link #median} with its design: the standard error from the positive values (a rate, a time). */
    static ForkInterval medianDesign(double[] values) {
        double[] positive = java.util.Arrays.stream(values).filter(v -> v > 0 && Double.isFinite(v)).toArray();
        double se = positive.length < 2 ? Double.NaN : ForkInterval.of(new double[][] {positive}).logSe();
        return new ForkInterval(median(values), 1, values.length, Double.NaN, MedianInterval.LEVEL, se, 0);
    }

    /**
     * How far from its bound (a fraction: 0.12 is 12%) the true figure must lie for this run's
     * design to decide the claim with {@link Power#TARGET} power; NaN when the design is unknown or
     * the figure is counted.
     */
    double detectable() {
        return design == null || rounds == 0 ? Double.NaN : Power.detectable(design.logSe(), design.df(), design.level(), 0);
    }

    /** A claim on the median of per-round ratios {@code numer[i] / denom[i]}, paired by round. */
    static Interval ratio(double[] numer, double[] denom) {
        return MedianInterval.medianOfRatios(numer, denom);
    }

    /** A claim on the median of per-round values. */
    static Interval median(double[] values) {
        return MedianInterval.median(values);
    }

    /** Rounds too few for a 95% interval: their range is all there is, so the claim takes no direction. */
    boolean tooFewRounds() {
        return rounds > 0 && rounds < MedianInterval.MIN_ROUNDS;
    }

    ClaimVerdict verdict() {
        if (tooFewRounds()) return ClaimVerdict.UNDECIDED;
        ClaimVerdict above = Double.isInfinite(low) ? ClaimVerdict.HOLDS : ClaimVerdict.of(measured, low, true);
        ClaimVerdict below = Double.isInfinite(high) ? ClaimVerdict.HOLDS : ClaimVerdict.of(measured, high, false);
        if (above == ClaimVerdict.FAILS || below == ClaimVerdict.FAILS) return ClaimVerdict.FAILS;
        return above == ClaimVerdict.HOLDS && below == ClaimVerdict.HOLDS ? ClaimVerdict.HOLDS : ClaimVerdict.UNDECIDED;
    }

    /** The verdict in the report's words. */
    String words() {
        if (tooFewRounds()) return tooFew(rounds);
        double d = detectable();
        if (verdict() != ClaimVerdict.UNDECIDED || Double.isNaN(d)) return verdict().words();
        return verdict().words() + " (its design decides a figure " + (d < 0.1 ? Md.f1(d * 100) : Md.f0(d * 100)) + "% or more from the bound"
                + " with " + Md.f0(Power.TARGET * 100) + "% power)";
    }

    /** Why a figure from fewer than {@link MedianInterval#MIN_ROUNDS} rounds decides nothing, in words. */
    static String tooFew(int rounds) {
        return "undecided, with too few rounds for an interval (" + rounds + "; an interval takes " + MedianInterval.MIN_ROUNDS + ")";
    }

    String bound() {
        return Double.isInfinite(high) ? "≥ " + Md.f2(low) : Double.isInfinite(low) ? "≤ " + Md.f2(high) : Md.f2(low) + " – " + Md.f2(high);
    }

    String interval() {
        if (rounds == 0) return "counted";
        if (rounds == 1) return "none (1 round)";
        return "[" + Md.edge(measured, measured.low(), low, high) + ", " + Md.edge(measured, measured.high(), low, high) + "]";
    }

    /** A row of a claims table: the claim, the figure, its interval and rounds, the bound, the verdict. */
    List<String> row() {
        return List.of(statement, Md.fit(measured, measured.estimate()), interval(), rounds == 0 ? "–" : Integer.toString(rounds), bound(), words());
    }

    /**
     * The claims as a report's table ({@code claims_table}, the figure's column headed
     * {@code measuredHeader}), a tally ({@code claims_held}: "3 of 5"; {@code claims_summary}:
     * how many hold, fail and are undecided), {@code claims_family}: how false calls across the
     * family are controlled, and {@code claims_precision}: what the rounds behind the intervals can
     * resolve, with the family's sentence.
     */
    static void report(List<Claim> claims, String measuredHeader, Report out) {
        List<List<String>> rows = new ArrayList<>();
        int[] tally = new int[ClaimVerdict.values().length];
        int fewest = Integer.MAX_VALUE;
        int estimated = 0;
        for (Claim c : claims) {
            if (c.rounds > 0) estimated++;
            rows.add(c.row());
            tally[c.verdict().ordinal()]++;
            if (c.rounds > 0) fewest = Math.min(fewest, c.rounds);
        }
        out.put("claims_table", Md.table(List.of("claim", measuredHeader, "95% interval", "rounds", "bound", "on this run"), rows));
        out.put("claims_held", tally[ClaimVerdict.HOLDS.ordinal()] + " of " + claims.size());
        out.put("claims_summary", summary(tally, claims.size()));
        out.put("claims_family", ClaimFamily.words(claims.size(), estimated));
        out.put("claims_rounds", precision(fewest));
        out.put("claims_precision", precision(fewest) + " " + out.values.get("claims_family"));
    }

    /** "Of the lab's 12 claims checked on this run, 3 hold, 2 fail and 7 are undecided at this run's precision." */
    static String summary(int[] tally, int n) {
        int undecided = tally[ClaimVerdict.UNDECIDED.ordinal()];
        return "Of the lab's " + n + " claim" + (n == 1 ? "" : "s") + " checked on this run, " + tally[ClaimVerdict.HOLDS.ordinal()]
                + " hold" + (tally[ClaimVerdict.HOLDS.ordinal()] == 1 ? "s" : "") + ", " + tally[ClaimVerdict.FAILS.ordinal()]
                + " fail" + (tally[ClaimVerdict.FAILS.ordinal()] == 1 ? "s" : "") + " and " + undecided + " "
                + (undecided == 1 ? "is" : "are") + " undecided at this run's precision";
    }

    /** What the fewest rounds behind a claim can tell, in words. */
    static String precision(int rounds) {
        if (rounds == Integer.MAX_VALUE) return "Every figure here is counted on the run, not estimated from rounds.";
        String base = "Each interval is a 95% interval of the median from order statistics (of n rounds' values sorted, the"
                + " k-th smallest to the k-th largest, k from the binomial: the 6th to the 15th of 20), which holds the true median"
                + " at least 95% of the time whatever the noise's shape; each comes from the quantity's own per-round values"
                + " (a ratio's from the rounds' ratios, paired by round).";
        if (rounds == 1) {
            return base + " Some figures rest on a single round, which gives no interval: their claims are undecided,"
                    + " whatever the figure, until a run with more rounds.";
        }
        if (rounds < MedianInterval.MIN_ROUNDS) {
            double coverage = 100 * MedianInterval.coverage(rounds);
            return base + " With " + rounds + " rounds behind a figure, its interval is the whole range of the rounds,"
                    + " and the range of " + rounds + " rounds holds the true median only " + Md.f0(coverage) + "% of the time:"
                    + " too few for a 95% interval (that takes " + MedianInterval.MIN_ROUNDS + "), so those claims are undecided,"
                    + " whatever the figure, until a run with more rounds.";
        }
        return base + " An undecided claim is one whose interval straddles its bound: more rounds (or a quieter machine)"
                + " would narrow it.";
    }
}
