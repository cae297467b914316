package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * One long run ranks its leader only when the lead is larger than the steady-half variation of
 * both the leader and the runner-up: the committed run's 7.6% lead sat below the leader's own 12%.
 */
class LongRunExperimentTest {
    @Test
    void aLeadSmallerThanTheLeadersOwnVariationCannotRank() {
        // LT, ET, MP as in the committed run: ET leads LT by 7.6%, ET's steady half varies by 12%, LT's by 5%
        String v = LongRunExperiment.rankingVerdict(new double[] {12051.3, 12969.0, 10133.4}, new double[] {0.05, 0.12, 0.28});
        assertThat(v).startsWith("the lead of 7.6% over LT is no larger than ET's steady-half variation (12.0%")
                .endsWith("so this run cannot rank them");
    }

    @Test
    void theRunnerUpsVariationCountsToo() {
        // the leader is steady, the runner-up wanders by more than the lead
        String v = LongRunExperiment.rankingVerdict(new double[] {100, 110, 50}, new double[] {0.15, 0.02, 0.01});
        assertThat(v).contains("over LT is no larger than LT's steady-half variation (15.0%").endsWith("cannot rank them");
    }

    @Test
    void aLeadBeyondBothVariationsRanksButClaimsNoInterval() {
        // MP leads ET by 20%; the third server's wide variation does not matter
        String v = LongRunExperiment.rankingVerdict(new double[] {50, 100, 120}, new double[] {0.9, 0.05, 0.08});
        assertThat(v).startsWith("the lead of 20.0% over ET is larger than MP's steady-half variation (8.0%")
                .endsWith("no interval");
    }
}
