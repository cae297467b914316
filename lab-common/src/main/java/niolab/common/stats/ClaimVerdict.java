package niolab.common.stats;

/**
 * Whether a measured interval supports a claim "at least bound" or "at most bound". Noise never
 * helps a claim: it holds only when the whole interval clears the bound, fails only when the whole
 * interval lies on the wrong side, and is otherwise undecided at the run's precision.
 */
public enum ClaimVerdict {
    HOLDS("holds"),
    FAILS("fails"),
    UNDECIDED("undecided at this run's precision");

    private final String words;

    ClaimVerdict(String words) {
        this.words = words;
    }

    /** {@code atLeast}: the claim is "measured >= bound"; otherwise "measured <= bound". */
    public static ClaimVerdict of(Interval measured, double bound, boolean atLeast) {
        if (atLeast) {
            if (measured.low() >= bound) return HOLDS;
            if (measured.high() < bound) return FAILS;
        } else {
            if (measured.high() <= bound) return HOLDS;
            if (measured.low() > bound) return FAILS;
        }
        return UNDECIDED;
    }

    /** "holds", "fails" or "undecided at this run's precision", for a report's sentence. */
    public String words() {
        return words;
    }
}
