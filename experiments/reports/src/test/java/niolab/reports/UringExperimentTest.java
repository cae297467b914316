package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import niolab.common.stats.Interval;
import org.junit.jupiter.api.Test;

/** exp-uring tells its two ring modes apart in CPU only beyond the report's threshold. */
class UringExperimentTest {
    @Test
    void theModesAreToldApartOnlyBeyondTheThreshold() {
        assertThat(UringExperiment.modesVerdict(new Interval(0.90, 0.85, 0.94), 0.02)).isEqualTo("less, beyond the report's threshold of ±2.0%");
        assertThat(UringExperiment.modesVerdict(new Interval(1.10, 1.06, 1.15), 0.05)).isEqualTo("more, beyond the report's threshold of ±5.0%");
        // below 1 but inside the floor: no difference
        assertThat(UringExperiment.modesVerdict(new Interval(0.97, 0.96, 0.98), 0.047)).isEqualTo("the same within the report's threshold of ±4.7%");
        assertThat(UringExperiment.modesVerdict(new Interval(0.97, 0.90, 1.03), 0.02)).startsWith("this run cannot tell the two modes apart");
    }
}
