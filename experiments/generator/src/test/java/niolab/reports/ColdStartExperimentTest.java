package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** exp-cold-start's sentences follow its numbers: a rerun that flips a comparison flips the words. */
class ColdStartExperimentTest {
    /** QPS medians in CONFIGS order: jdk17, jdk25, aot, warm-server, warm. */
    private static Report ratios(double... qps) {
        Report out = new Report();
        ColdStartExperiment.ratios(qps, out);
        return out;
    }

    @Test
    void theGapToTheWarmRateIsSplitBetweenServerAndClient() {
        Report clientMostly = ratios(900, 1000, 1600, 1500, 6000);
        assertThat(clientMostly.values.get("warm_split")).startsWith("Warming the server alone closes 10% of that gap; the other 90%");
        assertThat(clientMostly.values.get("side_verdict")).startsWith("The client's cold start");
        assertThat(ratios(900, 1000, 1600, 5000, 6000).values.get("side_verdict")).startsWith("The server's cold start");
        assertThat(ratios(900, 1000, 1600, 900, 6000).values.get("warm_split")).contains("does not raise the rate");
    }

    @Test
    void theAotTargetIsOneAndAHalfTimesJdk25() {
        assertThat(ratios(900, 1000, 1600, 1500, 6000).values.get("aot_target")).isEqualTo("meets the target of 1.5×");
        assertThat(ratios(900, 1000, 1400, 1500, 6000).values.get("aot_target")).isEqualTo("misses the target of 1.5×");
        assertThat(ratios(900, 1000, 900, 1500, 6000).values.get("aot_verdict")).contains("did not speed");
    }
}
