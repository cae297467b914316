package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.Interval;
import org.junit.jupiter.api.Test;

/**
 * exp-backend's A/A pair is a check against the declared threshold, which it never sets; its
 * postures' claims and its steadier measure come from analyse on hand-made rounds.
 */
class BackendExperimentTest {
    @Test
    void anAaPairReachingBeyondTheThresholdIsAWarningNotANewThreshold() {
        // the committed run's A/A: 0.978 [0.949, 0.991], reaching 5.1% from 1
        Report out = new Report();
        BackendExperiment.aaReading(new Interval(0.978, 0.949, 0.991), out);
        assertThat(out.values()).containsEntry("aa", "yes").containsEntry("threshold_percent", "±5%");
        assertThat(out.values().get("aa_check")).contains("A/A check: 0.978 [0.949, 0.991], warning: reaches 5.1% from 1, beyond ±5%");
    }

    @Test
    void aQuietAaPairIsInsideTheThreshold() {
        Report out = new Report();
        BackendExperiment.aaReading(new Interval(1.001, 0.995, 1.008), out);
        assertThat(out.values().get("aa_check")).contains("A/A check: 1.001 [0.995, 1.008], inside ±5%").doesNotContain("warning");
        Report none = new Report();
        BackendExperiment.aaReading(null, none);
        assertThat(none.values()).containsEntry("aa", "no").containsEntry("threshold_percent", "±5%").doesNotContainKey("aa_check");
    }

    @Test
    void onlyClaimsFromAForkedCompareRunGetTheForkSentenceBesideTheRoundsOfPart2() {
        for (int forks : new int[] {0, 1}) {
            Report out = new Report();
            BackendExperiment.forkedClaims(forks, 10, out);
            assertThat(out.values()).containsEntry("forked_claims", "false").doesNotContainKey("fork_precision");
        }
        Report out = new Report().put("claims_rounds", "Each interval rests on 8 rounds.");
        BackendExperiment.forkedClaims(3, 10, out);
        assertThat(out.values()).containsEntry("forked_claims", "true").containsEntry("claims_rounds_lower", "each interval rests on 8 rounds.");
        assertThat(out.values().get("fork_precision")).startsWith("Each interval comes from 3 forks (fresh server processes) of 10 rounds");
    }

    @Test
    void analyseDecidesThePosturesClaimsOnHandMadeRounds() {
        // 8 rounds per server, the rate drifting by round and the CPU per request not: loop 3× pool's rate and 1.5× blocking's;
        // pool costs the core 53 µs per /healthz against loop's 23 (2.3×), blocking 33 (1.4×); redis-benchmark GET -P 1 at 20,000/s
        List<BackendExperiment.Sample> samples = new ArrayList<>();
        List<BackendExperiment.Get> gets = new ArrayList<>();
        for (int r = 1; r <= 8; r++) {
            double drift = 1 + 0.1 * (r % 4);
            for (String a : new String[] {"lt", "et"}) {
                samples.add(new BackendExperiment.Sample(a, "loop", "/healthz", 30_000 * drift, 1000, 20, 3, 0));
                samples.add(new BackendExperiment.Sample(a, "pool", "/healthz", 10_000 * drift, 1000, 50, 3, 0));
                samples.add(new BackendExperiment.Sample(a, "blocking", "/healthz", 20_000 * drift, 1000, 30, 3, 0));
            }
            samples.add(new BackendExperiment.Sample("vt", "thread", "/healthz", 15_000 * drift, 1000, 40, 3, 0));
            gets.add(new BackendExperiment.Get("1", 20_000, 10));
            gets.add(new BackendExperiment.Get("16", 200_000, 1));
        }
        BackendExperiment.Data d = new BackendExperiment.Data(Map.of("depth", "16"), "7", samples, Map.of(), gets, Map.of(), null);
        BackendExperiment.Findings f = BackendExperiment.analyse(d);
        // per architecture: loop ≥ 2× pool holds, ≥ 2× blocking fails, half of GET -P 1 holds, pool's core time ≥ 2× holds, blocking's fails
        List<ClaimVerdict> perArch = List.of(ClaimVerdict.HOLDS, ClaimVerdict.FAILS, ClaimVerdict.HOLDS, ClaimVerdict.HOLDS, ClaimVerdict.FAILS);
        List<ClaimVerdict> both = new ArrayList<>(perArch);
        both.addAll(perArch);
        assertThat(f.claims()).extracting(Claim::verdict).containsExactlyElementsOf(both);
        assertThat(f.postures()).extracting(BackendExperiment.Postures::best).containsExactly(0, 0);
        // the core time per request did not move between rounds, the rate did: the core time is the steadier measure
        assertThat(f.coreSpread()).isZero();
        assertThat(f.rateSpread()).isGreaterThan(0);
        assertThat(f.bestGets()).isEqualTo(2 * Stats.median(d.of(BackendExperiment.Sample::rate, "lt", "loop", "/healthz")));
        assertThat(f.ceilings()).containsExactly(20_000, 200_000);
    }
}
