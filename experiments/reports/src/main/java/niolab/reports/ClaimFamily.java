package niolab.reports;

/**
 * How a report controls false calls across its family of claims: each claim is decided by its own
 * 95% interval at its declared bound, and a claim is called wrongly (holds when it is false, fails
 * when it is true) only when its interval lies wholly on the wrong side of the bound, at most 2.5%
 * of the time, one tail of the interval. Summed over the family, the expected number of false calls
 * is at most n × 2.5% (the per-family error rate): a bound that holds without correcting the
 * intervals, so that each claim keeps the interval its table prints.
 */
final class ClaimFamily {
    /** The chance one claim is called wrongly: one tail of a 95% interval. */
    static final double PER_CLAIM = 0.025;

    private ClaimFamily() {
    }

    /** The expected number of false calls among {@code claims} claims decided this way, at most. */
    static double expectedFalseCalls(int claims) {
        if (claims < 0) throw new IllegalArgumentException("a family of " + claims + " claims");
        return claims * PER_CLAIM;
    }

    /**
     * "The 10 claims above are one family: ... at most 0.25 false calls expected across them.",
     * {@code estimated} of them decided by an interval (a counted figure cannot be called wrongly by noise).
     */
    static String words(int claims, int estimated) {
        if (estimated == 0) return "The " + claims + " claim" + (claims == 1 ? "" : "s") + " above are counted, not estimated: no false call by noise.";
        return "The " + (claims == 1 ? "claim above is" : claims + " claims above are") + " one family. Each is decided by its own 95%"
                + " interval at its declared bound, so noise calls it wrongly at most " + Md.f1(PER_CLAIM * 100) + "% of the time;"
                + " across the " + estimated + " estimated, the expected number of false calls is at most " + Md.f2(expectedFalseCalls(estimated))
                + " (the per-family error rate; the intervals are not corrected, so each keeps the one its row prints).";
    }
}
