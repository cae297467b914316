package niolab.common.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import niolab.common.stats.Comparison.Quantity;
import niolab.common.stats.Comparison.Verdict;
import org.junit.jupiter.api.Test;

/** The threshold rule: four verdicts, the threshold on every line, deciding edges shown deciding. */
class ThresholdVerdictTest {
    @Test
    void aDirectionNeedsTheWholeIntervalBeyondTheThreshold() {
        assertThat(Comparison.verdict(new Interval(1.08, 1.05, 1.11), 0.02)).isEqualTo(Verdict.ABOVE);
        assertThat(Comparison.verdict(new Interval(1.04, 1.01, 1.06), 0.02)).as("excludes 1 but not 1.02").isEqualTo(Verdict.UNDECIDED);
        assertThat(Comparison.verdict(new Interval(1.04, 1.02, 1.06), 0.02)).as("an edge on the bound is not beyond it").isEqualTo(Verdict.UNDECIDED);
        assertThat(Comparison.verdict(new Interval(0.90, 0.85, 0.97), 0.02)).isEqualTo(Verdict.BELOW);
        assertThat(Comparison.verdict(new Interval(0.97, 0.95, 0.985), 0.02)).isEqualTo(Verdict.UNDECIDED);
    }

    @Test
    void theSameNeedsTheWholeIntervalInside() {
        assertThat(Comparison.verdict(new Interval(1.0, 0.99, 1.01), 0.02)).isEqualTo(Verdict.SAME);
        assertThat(Comparison.verdict(new Interval(1.0, 0.98, 1.02), 0.02)).as("edges on the bounds are inside").isEqualTo(Verdict.SAME);
        assertThat(Comparison.verdict(new Interval(1.0, 0.97, 1.01), 0.02)).isEqualTo(Verdict.UNDECIDED);
        assertThat(Comparison.verdict(new Interval(1.0, 0.97, 1.01), 0.05)).as("a larger threshold").isEqualTo(Verdict.SAME);
        assertThat(Comparison.verdict(new Interval(1.01, 1.005, 1.015), 0)).as("threshold 0 is the old rule").isEqualTo(Verdict.ABOVE);
        assertThatThrownBy(() -> Comparison.verdict(Interval.exactly(1), -0.1)).hasMessageContaining("threshold");
    }

    @Test
    void everyVerdictLineCarriesItsThreshold() {
        assertThat(Comparison.describe(new Interval(1.08, 1.05, 1.11), Quantity.RATE, 0.02)).isEqualTo("faster by 8.0% [5.0%, 11.0%] (threshold ±2.0%)");
        assertThat(Comparison.describe(new Interval(1.20, 1.10, 1.31), Quantity.COST, 0.02)).isEqualTo("costlier by 20% [10%, 31%] (threshold ±2.0%)");
        assertThat(Comparison.describe(new Interval(0.5, 0.4, 0.6), Quantity.LATENCY, 0.047)).isEqualTo("lower by 50% [40%, 60%] (threshold ±4.7%)");
        assertThat(Comparison.describe(new Interval(0.996, 0.988, 1.008), Quantity.RATE, 0.02))
                .isEqualTo("the same within ±2.0%: [-1.2%, +0.8%] (threshold ±2.0%)");
        assertThat(Comparison.describe(new Interval(1.004, 0.985, 1.053), Quantity.RATE, 0.02))
                .isEqualTo("undecided at this precision (±5.3%) (threshold ±2.0%)");
    }

    /** exp-vt's CPU per request, 1.197 [1.194, 1.201], was once "the same within ±31.5%" of a noisy run's own floor. */
    @Test
    void aFixedThresholdCallsWhatANoisyFloorHid() {
        assertThat(Comparison.describe(new Interval(1.197, 1.194, 1.201), Quantity.COST, 0.02)).isEqualTo("costlier by 19.7% [19.4%, 20.1%] (threshold ±2.0%)");
        assertThat(Comparison.verdict(new Interval(1.197, 1.194, 1.201), Comparison.threshold(new Interval(1, 0.685, 1.315))))
                .as("the former rule: the A/A floor as the margin").isEqualTo(Verdict.SAME);
    }

    /** exp-concurrency's "ET slower by 0.4% [0.3%, 0.5%]" against ±2%: the same, and still slower by what it measured. */
    @Test
    void theSameWithinTheThresholdKeepsADirectionItsIntervalShows() {
        Interval et = new Interval(0.996, 0.995, 0.997);
        assertThat(Comparison.direction(et)).as("the interval excludes 1").isEqualTo(Comparison.Direction.BELOW);
        assertThat(Comparison.verdict(et, 0.02)).isEqualTo(Verdict.SAME);
        assertThat(Comparison.describe(et, Quantity.RATE, 0.02)).isEqualTo("the same within ±2.0%: slower by 0.4% [0.3%, 0.5%] (threshold ±2.0%)");
        assertThat(Comparison.describe(new Interval(1.008, 1.003, 1.014), Quantity.COST, 0.02))
                .isEqualTo("the same within ±2.0%: costlier by 0.8% [0.3%, 1.4%] (threshold ±2.0%)");
    }

    @Test
    void theFormerRuleTookTheLargerOfTwoPercentAndTheFloor() {
        assertThat(Comparison.floor(new Interval(1.0, 0.96, 1.01))).isCloseTo(0.04, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Comparison.threshold(new Interval(1.0, 0.96, 1.01))).isCloseTo(0.04, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Comparison.threshold(new Interval(1.0, 0.995, 1.01))).isEqualTo(0.02);
        assertThat(Comparison.threshold(null)).isEqualTo(Comparison.MIN_THRESHOLD);
    }

    /** An edge printed on the wrong side of its bound would contradict the verdict beside it. */
    @Test
    void decidingEdgesGetTheDigitsThatShowThemDecide() {
        // 2.04% > 2% decides "faster": at one decimal both print as 2.0
        assertThat(Comparison.describe(new Interval(1.08, 1.0204, 1.11), Quantity.RATE, 0.02))
                .isEqualTo("faster by 8.00% [2.04%, 11.00%] (threshold ±2.00%)");
        // 1.996% is inside ±2%: it must not print as 2.0, nor the same as the bound
        assertThat(Comparison.describe(new Interval(1.0, 0.99, 1.01996), Quantity.RATE, 0.02))
                .isEqualTo("the same within ±2.000%: [-1.000%, +1.996%] (threshold ±2.000%)");
        // a reach just above the threshold is undecided and must print above it
        assertThat(Comparison.describe(new Interval(1.0, 0.99, 1.0204), Quantity.RATE, 0.02))
                .isEqualTo("undecided at this precision (±2.04%) (threshold ±2.00%)");
        assertThat(Decimals.interval(new Interval(0.96, 0.94, 0.996), 2, 1.0)).isEqualTo("0.960 [0.940, 0.996]");
        assertThat(Decimals.interval(new Interval(0.96, 0.94, 0.9996), 2, 1.0)).isEqualTo("0.9600 [0.9400, 0.9996]");
        assertThat(Decimals.interval(new Interval(1.2, 1.0, 1.3), 2, 1.0)).as("an edge on its bound stays on it").isEqualTo("1.20 [1.00, 1.30]");
        assertThat(Decimals.needed(0, new double[] {0.5}, 0.5 + 1e-12)).isEqualTo(Decimals.MAX);
    }
}
