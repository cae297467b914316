package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.Comparison;
import niolab.common.stats.Interval;
import org.junit.jupiter.api.Test;

/** The one owner of verdict wording: each decision said the same way wherever a report says it. */
class VerdictsTest {
    @Test
    void aCellSaysItsDirectionOnlyBeyondTheThreshold() {
        assertThat(Verdicts.cell(new Interval(0.90, 0.85, 0.94), Comparison.Quantity.RATE, 0.05)).endsWith(" slower");
        assertThat(Verdicts.cell(new Interval(1.10, 1.06, 1.15), Comparison.Quantity.COST, 0.05)).endsWith(" costlier");
        assertThat(Verdicts.cell(new Interval(1.00, 0.99, 1.01), Comparison.Quantity.COST, 0.05)).endsWith(" the same");
        assertThat(Verdicts.cell(new Interval(0.97, 0.93, 1.01), Comparison.Quantity.RATE, 0.05)).endsWith(" undecided");
        assertThat(Verdicts.cell(null, Comparison.Quantity.RATE, 0.05)).isEqualTo("–");
    }

    @Test
    void severalClaimsFailWhenOneFailsAndHoldOnlyWhenAllHold() {
        Claim holds = Claim.atLeast("h", new Interval(2, 1.9, 2.1), 6, 1), fails = Claim.atLeast("f", new Interval(0.5, 0.4, 0.6), 6, 1),
                open = Claim.atLeast("u", new Interval(1, 0.9, 1.1), 6, 1);
        assertThat(Verdicts.all(List.of(holds, holds))).isEqualTo(ClaimVerdict.HOLDS);
        assertThat(Verdicts.all(List.of(holds, open))).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(Verdicts.all(List.of(open, fails))).isEqualTo(ClaimVerdict.FAILS);
    }

    @Test
    void theHighestMedianTiesWithEveryServerItIsNotShownAheadOf() {
        Map<String, Interval> over = Map.of("b", new Interval(1.2, 1.1, 1.3), "c", new Interval(1.02, 0.98, 1.06));
        List<String> ties = Verdicts.ties("a", List.of("a", "b", "c", "d"), over::get, 0.05);
        // c's interval reaches below 1.05; d has no interval at all
        assertThat(ties).containsExactly("c", "d");
        assertThat(Verdicts.highestMedian(ties)).isEqualTo(", the highest median, not resolved from c, d at this run's precision");
        assertThat(Verdicts.bestOrTies("A", List.of())).isEqualTo("A");
        assertThat(Verdicts.bestOrTies("A", List.of("C"))).isEqualTo("unresolved: A, C");
        assertThat(Verdicts.moreOrLess(new Interval(0.97, 0.93, 1.01), 0.02, "CPU"))
                .isEqualTo("this run cannot tell the two modes apart in CPU at its threshold of ±2.0%");
    }
}
