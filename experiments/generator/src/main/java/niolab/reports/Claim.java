package niolab.reports;

import java.util.List;

/**
 * One of the lab's claims, checked on a run: a figure measured on it (a ratio, or an absolute
 * amount) against the bound the lab sets. A failure by less than the run-to-run noise says so,
 * since a rerun may flip it.
 */
record Claim(String statement, double measured, double bound, boolean atLeast) {
    boolean holds() {
        return atLeast ? measured >= bound : measured <= bound;
    }

    boolean withinNoise(double noise) {
        return !holds() && Math.abs(measured - bound) / bound < noise;
    }

    /** A row of a claims table: the claim, the figure, the bound, and the verdict. */
    List<String> row(double noise) {
        return List.of(statement, Md.f2(measured), (atLeast ? "≥ " : "≤ ") + Md.f2(bound),
                holds() ? "holds" : withinNoise(noise) ? "fails, within the noise" : "fails");
    }
}
