package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import niolab.common.stats.Interval;
import org.junit.jupiter.api.Test;

/** exp-backend's A/A pair is read through the threshold rule and sets the threshold of the run's other verdicts. */
class BackendExperimentTest {
    @Test
    void theCommittedAaPairIsNoDifferenceAndSetsTheThreshold() {
        // the committed run's A/A: 0.978 [0.949, 0.991], which the old rule called "slower by 2.2%"
        String s = BackendExperiment.aaReading(new Interval(0.978, 0.949, 0.991));
        assertThat(s).contains("undecided at this precision (±5.1%) (threshold ±2.0%)").contains("a threshold of ±5.1%")
                .endsWith("called this pair of identical servers a difference.)");
    }

    @Test
    void aQuietAaPairIsTheSameAndLeavesTheLeastThreshold() {
        String s = BackendExperiment.aaReading(new Interval(1.001, 0.995, 1.008));
        assertThat(s).contains("the same within ±2.0%").contains("a threshold of ±2.0%").doesNotContain("called this pair");
        assertThat(BackendExperiment.aaReading(null)).contains("no A/A floor").contains("±2.0%");
    }
}
