package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateScheduleTest {
    private static final long MS = 1_000_000L;

    @Test
    void connectionsShareTheRateAndInterleaveTheirIntendedStarts() {
        // 1000/s over 4 connections: each connection every 4 ms, connection k offset by k ms
        RateSchedule c0 = new RateSchedule(0, 1000, 4, 0);
        RateSchedule c1 = new RateSchedule(0, 1000, 4, 1);
        assertThat(new long[] {c0.next(), c0.next(), c0.next()}).containsExactly(0, 4 * MS, 8 * MS);
        assertThat(new long[] {c1.next(), c1.next(), c1.next()}).containsExactly(MS, 5 * MS, 9 * MS);
    }

    @Test
    void aStalledConnectionCatchesUpWithoutMovingItsSchedule() {
        RateSchedule s = new RateSchedule(100 * MS, 1000, 1, 0);
        assertThat(s.due(99 * MS)).isFalse();
        assertThat(s.next()).isEqualTo(100 * MS);
        // stalled until t = 120 ms: twenty requests are overdue, each keeps its own intended start
        long now = 120 * MS;
        int overdue = 0;
        long lagSum = 0;
        while (s.due(now) && overdue < 1000) { // bounded: a schedule that never moves on must fail, not hang
            lagSum += now - s.next();
            overdue++;
        }
        assertThat(overdue).isEqualTo(20);               // 101 .. 120 ms
        assertThat(lagSum).isEqualTo(190 * MS);          // 19 + 18 + ... + 0 ms: what the corrected latencies add
        assertThat(s.peek()).isEqualTo(121 * MS);        // then the schedule goes on as planned
        assertThat(s.taken()).isEqualTo(21);
    }

    @Test
    void longRunsDoNotDrift() {
        RateSchedule s = new RateSchedule(0, 3, 1, 0); // 333.33 ms apart: rounding must not accumulate
        for (int j = 0; j < 3_000_000; j++) s.next();
        assertThat(s.peek()).isEqualTo(1_000_000L * 1_000_000_000L);
    }
}
