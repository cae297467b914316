package niolab.reports;

import java.util.ArrayList;
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

    /**
     * The claims as a report's table ({@code claims_table}, the figure's column headed
     * {@code measuredHeader}) and tallies: {@code claims_held} ("3 of 5") and {@code claims_close}
     * (the failures within the noise).
     */
    static void report(List<Claim> claims, String measuredHeader, double noise, Report out) {
        List<List<String>> rows = new ArrayList<>();
        int held = 0, close = 0;
        for (Claim c : claims) {
            rows.add(c.row(noise));
            if (c.holds()) held++;
            if (c.withinNoise(noise)) close++;
        }
        out.put("claims_table", Md.table(List.of("claim", measuredHeader, "bound", "on this run"), rows));
        out.put("claims_held", held + " of " + claims.size());
        out.put("claims_close", Integer.toString(close));
    }
}
