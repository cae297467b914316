package niolab.common.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VerdictTest {
    @Test
    void anAtLeastClaimHoldsOnlyWhenTheWholeIntervalClearsTheBound() {
        assertThat(ClaimVerdict.of(new Interval(2.2, 2.0, 2.4), 2.0, true)).isEqualTo(ClaimVerdict.HOLDS);
        assertThat(ClaimVerdict.of(new Interval(2.2, 1.99, 2.4), 2.0, true)).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(ClaimVerdict.of(new Interval(1.9, 1.8, 2.0), 2.0, true)).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(ClaimVerdict.of(new Interval(1.9, 1.8, 1.99), 2.0, true)).isEqualTo(ClaimVerdict.FAILS);
    }

    @Test
    void anAtMostClaimIsTheMirror() {
        assertThat(ClaimVerdict.of(new Interval(0.9, 0.8, 1.0), 1.0, false)).isEqualTo(ClaimVerdict.HOLDS);
        assertThat(ClaimVerdict.of(new Interval(0.9, 0.8, 1.01), 1.0, false)).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(ClaimVerdict.of(new Interval(1.1, 1.01, 1.2), 1.0, false)).isEqualTo(ClaimVerdict.FAILS);
    }

    /** A point estimate past the bound does not make a claim hold while the interval straddles it, nor fail. */
    @Test
    void noiseNeverDecidesAClaimEitherWay() {
        Interval straddling = new Interval(1.11, 0.95, 1.25);
        assertThat(ClaimVerdict.of(straddling, 1.0, true)).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(ClaimVerdict.of(straddling, 1.2, true)).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(ClaimVerdict.UNDECIDED.words()).isEqualTo("undecided at this run's precision");
        assertThat(ClaimVerdict.of(Interval.exactly(2.0), 2.0, true)).isEqualTo(ClaimVerdict.HOLDS);
    }

    @Test
    void theDirectionIsDecidedOnlyByAnIntervalThatExcludesOne() {
        assertThat(Comparison.direction(new Interval(1.2, 1.001, 1.3))).isEqualTo(Comparison.Direction.ABOVE);
        assertThat(Comparison.direction(new Interval(1.2, 1.0, 1.3))).isEqualTo(Comparison.Direction.NONE);
        assertThat(Comparison.direction(new Interval(0.8, 0.7, 0.999))).isEqualTo(Comparison.Direction.BELOW);
    }

    @Test
    void anIntervalKnowsItsWidthAndRefusesToBeEmpty() {
        Interval i = new Interval(1.0, 0.97, 1.03);
        assertThat(i.width()).isCloseTo(0.06, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(i.halfWidth()).isCloseTo(0.03, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(i.contains(1.03)).isTrue();
        assertThat(i.contains(1.031)).isFalse();
        assertThatThrownBy(() -> new Interval(1, 2, 1)).hasMessageContaining("empty");
    }
}
