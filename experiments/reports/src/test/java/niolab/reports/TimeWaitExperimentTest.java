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
        String r = TimeWaitExperiment.twReading(999, 999, 3000);
        assertThat(r).startsWith("the peak of 999 TIME-WAIT sockets comes with the client's own warm-up")
                .contains("ran without `--cold-client`").endsWith("the 3000 timed connections left at most 0: none beyond the warm-up's");
    }

    @Test
    void whatTheWarmUpDoesNotExplainIsTheTimedConnections() {
        assertThat(TimeWaitExperiment.twReading(1000, 400, 3000)).endsWith("left at most 600 beyond them");
    }

    @Test
    void aColdClientsPeakIsItsOwn() {
        assertThat(TimeWaitExperiment.twReading(0, 0, 3000)).isEqualTo("no socket entered TIME-WAIT during the run (peak 0)");
        assertThat(TimeWaitExperiment.twReading(1000, 0, 1000)).isEqualTo("1000 sockets were in TIME-WAIT at the peak, left by its 1000 timed connections");
    }
}
