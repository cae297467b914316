package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import niolab.server.base.WaitTimeout;
import org.junit.jupiter.api.Test;

/** The wait's timeout: -1 is none, the sooner of two wins, a deadline rounds up and never goes below its minimum. */
class WaitTimeoutTest {
    @Test
    void noneGivesWayToAnyTimeoutAndTheSoonerOfTwoWins() {
        assertThat(WaitTimeout.sooner(WaitTimeout.NONE, WaitTimeout.NONE)).isEqualTo(WaitTimeout.NONE);
        assertThat(WaitTimeout.sooner(WaitTimeout.NONE, 7)).isEqualTo(7);
        assertThat(WaitTimeout.sooner(7, WaitTimeout.NONE)).isEqualTo(7);
        assertThat(WaitTimeout.sooner(7, 3)).isEqualTo(3);
        assertThat(WaitTimeout.sooner(0, 3)).isZero();
    }

    @Test
    void aDeadlineRoundsUpSoTheWaitNeverEndsBeforeItAndKeepsItsMinimum() {
        long inAMinute = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        // Rounded up: never less than the whole milliseconds left, and at most 60 000 (the time left when asked).
        assertThat(WaitTimeout.until(inAMinute, 0)).isBetween(59_000L, 60_000L);
        long past = System.nanoTime() - TimeUnit.SECONDS.toNanos(1);
        assertThat(WaitTimeout.until(past, 0)).isZero();
        assertThat(WaitTimeout.until(past, 1)).isEqualTo(1);
    }
}
