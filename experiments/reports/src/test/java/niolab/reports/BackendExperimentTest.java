package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import niolab.common.stats.Interval;
import org.junit.jupiter.api.Test;

/** exp-backend's A/A pair is a check against the declared threshold, which it never sets. */
class BackendExperimentTest {
    @Test
    void anAaPairReachingBeyondTheThresholdIsAWarningNotANewThreshold() {
        // the committed run's A/A: 0.978 [0.949, 0.991], reaching 5.1% from 1
        String s = BackendExperiment.aaReading(new Interval(0.978, 0.949, 0.991));
        assertThat(s).contains("A/A check: 0.978 [0.949, 0.991], warning: reaches 5.1% from 1, beyond ±5%")
                .contains("the threshold, ±5%, was fixed before it");
    }

    @Test
    void aQuietAaPairIsInsideTheThreshold() {
        String s = BackendExperiment.aaReading(new Interval(1.001, 0.995, 1.008));
        assertThat(s).contains("A/A check: 1.001 [0.995, 1.008], inside ±5%").doesNotContain("warning");
        assertThat(BackendExperiment.aaReading(null)).contains("no A/A pair").contains("±5%");
    }
}
