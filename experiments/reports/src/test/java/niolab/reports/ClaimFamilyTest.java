package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.MedianInterval;
import org.junit.jupiter.api.Test;

/** The family's false-call bound: n claims at 2.5% each, and a seeded check that one claim on its bound is called wrongly no more often. */
class ClaimFamilyTest {
    @Test
    void theExpectedFalseCallsGrowWithTheFamily() {
        assertThat(ClaimFamily.expectedFalseCalls(0)).isZero();
        assertThat(ClaimFamily.expectedFalseCalls(10)).isEqualTo(0.25, org.assertj.core.data.Offset.offset(1e-12));
        assertThatThrownBy(() -> ClaimFamily.expectedFalseCalls(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSentenceNamesTheFamilyAndItsBound() {
        assertThat(ClaimFamily.words(12, 10)).startsWith("The 12 claims above are one family.")
                .contains("at most 2.5% of the time").contains("across the 10 estimated, the expected number of false calls is at most 0.25");
        assertThat(ClaimFamily.words(1, 1)).startsWith("The claim above is one family.");
        assertThat(ClaimFamily.words(3, 0)).isEqualTo("The 3 claims above are counted, not estimated: no false call by noise.");
    }

    @Test
    void aClaimWhoseTrueValueIsItsBoundIsCalledHoldsAtMostOneTailOfTheTime() {
        // the worst case for a false "holds": the true median sits on the bound; 4,000 seeded runs of 10 rounds each
        Random random = new Random(46);
        int runs = 4000, held = 0;
        for (int run = 0; run < runs; run++) {
            double[] rounds = new double[10];
            for (int i = 0; i < rounds.length; i++) rounds[i] = 1 + 0.05 * random.nextGaussian();
            if (Claim.atLeast("x", MedianInterval.median(rounds), rounds.length, 1).verdict() == ClaimVerdict.HOLDS) held++;
        }
        assertThat((double) held / runs).isLessThanOrEqualTo(ClaimFamily.PER_CLAIM);
    }
}
