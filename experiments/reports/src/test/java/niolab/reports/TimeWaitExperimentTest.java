package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A scenario's TIME-WAIT peak is read against its recorded client warm-up: the committed
 * linger0 run's peak of 999 is its warm-up's 999 connections, not its SO_LINGER 0 ones.
 */
class TimeWaitExperimentTest {
    @Test
    void aPeakNoLargerThanTheWarmUpIsTheWarmUps() {
        assertThat(TimeWaitExperiment.reading(999, 999)).isEqualTo(new TimeWaitExperiment.PeakReading(TimeWaitExperiment.Peak.WARMUP, 0));
    }

    @Test
    void whatTheWarmUpDoesNotExplainIsTheTimedConnections() {
        assertThat(TimeWaitExperiment.reading(1000, 400)).isEqualTo(new TimeWaitExperiment.PeakReading(TimeWaitExperiment.Peak.WARMUP, 600));
    }

    @Test
    void aColdClientsPeakIsItsOwn() {
        assertThat(TimeWaitExperiment.reading(0, 0)).isEqualTo(new TimeWaitExperiment.PeakReading(TimeWaitExperiment.Peak.NONE, 0));
        assertThat(TimeWaitExperiment.reading(1000, 0)).isEqualTo(new TimeWaitExperiment.PeakReading(TimeWaitExperiment.Peak.OWN, 1000));
    }
}
