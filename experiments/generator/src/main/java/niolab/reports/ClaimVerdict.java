package niolab.reports;

/**
 * A claim's verdict on one run. Stands in for {@code niolab.common.stats.ClaimVerdict}
 * (lab-common, issue 23) until that lands.
 */
enum ClaimVerdict {
    HOLDS, FAILS, UNDECIDED;

    /** HOLDS when the whole interval is on the claimed side of {@code bound}, FAILS when all of it is on the other. */
    static ClaimVerdict of(Interval i, double bound, boolean atLeast) {
        if (atLeast ? i.low() >= bound : i.high() <= bound) return HOLDS;
        if (atLeast ? i.high() < bound : i.low() > bound) return FAILS;
        return UNDECIDED;
    }
}
