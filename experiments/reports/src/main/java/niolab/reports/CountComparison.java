package niolab.reports;

import java.util.Locale;

/**
 * Two counted figures (syscalls per request, say) compared in a sentence: when a rerun flips the
 * comparison, the words flip with it. Counts, not rates measured in rounds: no interval applies.
 */
final class CountComparison {
    private CountComparison() {
    }

    /** "ET: 9.00 syscalls per request ..., LT: 18.74: ET makes 52.0% fewer" (or more, or as many). */
    static String fewerOrMore(String a, double va, String b, double vb, String unit) {
        String verdict;
        if (Math.abs(va - vb) < 0.005) {
            verdict = a + " makes as many as " + b;
        } else {
            verdict = String.format(Locale.ROOT, "%s makes %.1f%% %s than %s", a, Math.abs(Stats.pctDiff(va, vb)),
                    va < vb ? "fewer" : "more", b);
        }
        return a + ": " + Md.f2(va) + " " + unit + ", " + b + ": " + Md.f2(vb) + "; " + verdict;
    }
}
