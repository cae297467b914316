package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.Interval;
import org.junit.jupiter.api.Test;

/**
 * How the reports use the statistics: a claim's interval comes from its own rounds, paired by
 * round; it holds only when the whole interval clears the bound, fails only when the whole
 * interval is on the wrong side, and one round decides nothing.
 */
class ClaimTest {
    private static final double[] ONES = {1, 1, 1, 1, 1, 1};

    @Test
    void aClaimHoldsOnlyWhenEveryRoundClearsItsBound() {
        Claim clear = Claim.atLeast("x", Claim.ratio(new double[] {2.0, 2.1, 2.2, 2.0, 2.1, 2.2}, ONES), 6, 1.5);
        Claim straddles = Claim.atLeast("x", Claim.ratio(new double[] {1.4, 1.6, 1.7, 1.4, 1.6, 1.7}, ONES), 6, 1.5);
        Claim below = Claim.atLeast("x", Claim.ratio(new double[] {1.0, 1.1, 1.2, 1.0, 1.1, 1.2}, ONES), 6, 1.5);
        assertThat(clear.verdict()).isEqualTo(ClaimVerdict.HOLDS);
        assertThat(straddles.verdict()).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(straddles.words()).isEqualTo("undecided at this run's precision");
        assertThat(below.verdict()).isEqualTo(ClaimVerdict.FAILS);
    }

    @Test
    void noiseNeverHelpsAnAtMostClaimEither() {
        // the median (1.05) is within the bound, but a round above it leaves the claim open
        Claim c = Claim.atMost("cpu", Claim.ratio(new double[] {1.0, 1.05, 1.2, 1.0, 1.05, 1.2}, ONES), 6, 1.1);
        assertThat(c.measured().estimate()).isEqualTo(1.05);
        assertThat(c.verdict()).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(Claim.atMost("cpu", Claim.ratio(new double[] {1.2, 1.3, 1.25, 1.2, 1.3, 1.25}, ONES), 6, 1.1).verdict()).isEqualTo(ClaimVerdict.FAILS);
    }

    @Test
    void ratiosArePairedByRound() {
        // the machine halves and doubles both servers' rates from round to round: each round's ratio is 1.1
        Interval paired = Claim.ratio(new double[] {110, 55, 220, 110, 55, 220}, new double[] {100, 50, 200, 100, 50, 200});
        assertThat(paired.low()).isEqualTo(paired.high()).isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(Claim.atLeast("a", paired, 6, 1.0).verdict()).isEqualTo(ClaimVerdict.HOLDS);
    }

    @Test
    void oneRoundGivesNoIntervalAndNoVerdict() {
        Claim once = Claim.atMost("rss", Interval.exactly(60), 1, 100);
        assertThat(once.verdict()).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(once.row()).containsExactly("rss", "60.00", "none (1 round)", "1", "≤ 100.00", "undecided, with too few rounds for an interval (1; an interval takes 6)");
        assertThat(Claim.atLeast("counted", Interval.exactly(1), 0, 1).verdict()).isEqualTo(ClaimVerdict.HOLDS);
    }

    @Test
    void withinIsCheckedOnBothSides() {
        assertThat(Claim.within("r", new Interval(1.0, 0.95, 1.05), 6, 0.9, 1.1).verdict()).isEqualTo(ClaimVerdict.HOLDS);
        assertThat(Claim.within("r", new Interval(1.14, 1.07, 1.19), 6, 0.9, 1.1).verdict()).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(Claim.within("r", new Interval(1.25, 1.2, 1.3), 6, 0.9, 1.1).verdict()).isEqualTo(ClaimVerdict.FAILS);
        assertThat(Claim.within("r", new Interval(0.8, 0.75, 0.85), 6, 0.9, 1.1).verdict()).isEqualTo(ClaimVerdict.FAILS);
        assertThat(Claim.within("r", new Interval(1, 1, 1), 6, 0.9, 1.1).bound()).isEqualTo("0.90 – 1.10");
    }

    @Test
    void fewerRoundsThanAnIntervalNeedsDecideNothing() {
        // five rounds all far above the bound: their range is no 95% interval, so no direction
        double[] five = {2, 2.1, 2.2, 2.3, 2.4};
        Claim c = Claim.atLeast("a", Claim.ratio(five, new double[] {1, 1, 1, 1, 1}), 5, 1);
        assertThat(c.verdict()).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(c.words()).isEqualTo("undecided, with too few rounds for an interval (5; an interval takes 6)");
        assertThat(Claim.atMost("b", Claim.ratio(five, new double[] {1, 1, 1, 1, 1}), 5, 1).verdict()).isEqualTo(ClaimVerdict.UNDECIDED);
    }

    @Test
    void theReportTalliesVerdictsAndSaysWhatFewRoundsCanResolve() {
        Report out = new Report();
        Claim.report(List.of(Claim.atLeast("a", Claim.ratio(new double[] {2, 2, 2, 2, 2, 2}, ONES), 6, 1),
                Claim.atLeast("b", Claim.ratio(new double[] {0.9, 1.0, 1.1, 0.9, 1.0, 1.1}, ONES), 6, 1),
                Claim.atLeast("c", Claim.ratio(new double[] {2, 2, 2}, new double[] {1, 1, 1}), 3, 1)), "ratio", out);
        assertThat(out.values.get("claims_held")).isEqualTo("1 of 3");
        assertThat(out.values.get("claims_summary"))
                .isEqualTo("Of the lab's 3 claims checked on this run, 1 holds, 0 fail and 2 are undecided at this run's precision");
        assertThat(out.values.get("claims_precision")).contains("the range of 3 rounds holds the true median only 75% of the time")
                .contains("so those claims are undecided");
        assertThat(out.values.get("claims_table")).contains("| b | 1.00 | [0.90, 1.10] | 6 | ≥ 1.00 | undecided at this run's precision |")
                .contains("| c | 2.00 | [2.00, 2.00] | 3 | ≥ 1.00 | undecided, with too few rounds for an interval (3; an interval takes 6) |");
    }

    @Test
    void holdsAndFailsAreSymmetricAroundTheBoundWithNoMarginShieldingEither() {
        // just below the bound by 1%, the whole interval on the wrong side: it fails, whatever noise another run showed
        Claim justBelow = Claim.atLeast("x", new Interval(0.693, 0.690, 0.696), 6, 0.7);
        assertThat(justBelow.verdict()).isEqualTo(ClaimVerdict.FAILS);
        // the mirror image above the bound holds
        assertThat(Claim.atLeast("x", new Interval(0.707, 0.704, 0.710), 6, 0.7).verdict()).isEqualTo(ClaimVerdict.HOLDS);
        assertThat(Claim.atMost("y", new Interval(1.107, 1.104, 1.110), 6, 1.1).verdict()).isEqualTo(ClaimVerdict.FAILS);
        assertThat(justBelow.bound()).isEqualTo("≥ 0.70");
    }

    @Test
    void theReportStatesItsFamilyAndTheExpectedFalseCalls() {
        Report out = new Report();
        Claim.report(List.of(Claim.atLeast("a", Claim.ratio(new double[] {2, 2, 2, 2, 2, 2}, ONES), 6, 1),
                Claim.atMost("counted", Interval.exactly(0), 0, 0)), "ratio", out);
        assertThat(out.values.get("claims_family")).isEqualTo(ClaimFamily.words(2, 1));
        assertThat(out.values.get("claims_precision")).endsWith(out.values.get("claims_family"));
    }
}
