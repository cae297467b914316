package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.Comparison;
import niolab.common.stats.Interval;

/**
 * Every verdict a report puts into words, in one place: a ratio's verdict as a table cell's word,
 * two modes told apart, several claims read as one, and the highest median against the rest. The
 * decisions themselves are {@link Comparison#verdict} and {@link Claim#verdict}; this class says
 * them, so that one rule reads the same in every report.
 */
final class Verdicts {
    private Verdicts() {
    }

    /** A ratio's verdict as one word for a table cell: "faster", "cheaper", "the same", "undecided". */
    static String word(Comparison.Verdict v, Comparison.Quantity q) {
        return switch (v) {
            case ABOVE -> q == Comparison.Quantity.RATE ? "faster" : "costlier";
            case BELOW -> q == Comparison.Quantity.RATE ? "slower" : "cheaper";
            case SAME -> "the same";
            case UNDECIDED -> "undecided";
        };
    }

    /** "1.01× [0.99, 1.01] the same": the ratio, its interval against 1 ± the threshold, and its word; "–" for none. */
    static String cell(Interval i, Comparison.Quantity q, double threshold) {
        return i == null ? "–" : Md.ratio(i, threshold) + " " + word(Comparison.verdict(i, threshold), q);
    }

    /** One quantity of two modes told apart against the report's threshold: "less, beyond the report's threshold of ±2.0%". */
    static String moreOrLess(Interval ratio, double threshold, String what) {
        String t = Md.f1(threshold * 100) + "%";
        return switch (Comparison.verdict(ratio, threshold)) {
            case BELOW -> "less, beyond the report's threshold of ±" + t;
            case ABOVE -> "more, beyond the report's threshold of ±" + t;
            case SAME -> "the same within the report's threshold of ±" + t;
            case UNDECIDED -> "this run cannot tell the two modes apart in " + what + " at its threshold of ±" + t;
        };
    }

    /** A claim's verdict as a sentence's verb: "holds", "fails" or "is undecided at this run's precision ...". */
    static String verb(Claim claim) {
        return (claim.verdict() == ClaimVerdict.UNDECIDED ? "is " : "") + claim.words();
    }

    /** Several claims read as one: fails when any fails, holds when all hold, else undecided. */
    static ClaimVerdict all(List<Claim> claims) {
        boolean all = true;
        for (Claim c : claims) {
            if (c.verdict() == ClaimVerdict.FAILS) return ClaimVerdict.FAILS;
            all &= c.verdict() == ClaimVerdict.HOLDS;
        }
        return all ? ClaimVerdict.HOLDS : ClaimVerdict.UNDECIDED;
    }

    /**
     * The servers the highest median ({@code best}) is not shown ahead of: those whose ratio
     * {@code best / other} is missing or not wholly above 1 + threshold.
     */
    static List<String> ties(String best, List<String> others, Function<String, Interval> bestOver, double threshold) {
        List<String> ties = new ArrayList<>();
        for (String s : others) {
            if (s.equals(best)) continue;
            Interval ratio = bestOver.apply(s);
            if (ratio == null || Comparison.verdict(ratio, threshold) != Comparison.Verdict.ABOVE) ties.add(s);
        }
        return ties;
    }

    /** ", the highest median, ahead of every other server ..." or "..., not resolved from X, Y at this run's precision". */
    static String highestMedian(List<String> ties) {
        return ties.isEmpty() ? ", the highest median, ahead of every other server beyond its interval and the report's threshold"
                : ", the highest median, not resolved from " + String.join(", ", ties) + " at this run's precision";
    }

    /** "LT", or "unresolved: LT, ET" when the highest median is not shown ahead of the others. */
    static String bestOrTies(String best, List<String> ties) {
        if (ties.isEmpty()) return best;
        return "unresolved: " + best + ", " + String.join(", ", ties);
    }
}
