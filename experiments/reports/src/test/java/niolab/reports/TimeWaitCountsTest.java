package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** exp-time-wait's counts: TIME-WAIT over time from /proc/net/sockstat, and which side holds it. */
class TimeWaitCountsTest {
    @Test
    void timeWaitSinceSamplingBeganInWholeMilliseconds() {
        String lines = String.join("\n",
                "1764620000.100000",
                "1764620000.100900 TCP: inuse 3 orphan 0 tw 0 alloc 5 mem 1",
                "1764620001.351999 TCP: inuse 3 orphan 0 tw 997 alloc 5 mem 1",
                "1764620001.4", "");
        assertThat(TimeWaitCounts.timeline(lines)).isEqualTo("t_s,tw\n0.000,0\n1.251,997\n");
    }

    @Test
    void theSocketsOnTheServersPortAreTheServers() {
        String ss = String.join("\n",
                "0      0      127.0.0.1:40001     127.0.0.1:29120",
                "0      0      127.0.0.1:29120     127.0.0.1:40002",
                "0      0      127.0.0.1:40003     127.0.0.1:29120", "");
        assertThat(TimeWaitCounts.holders(ss, 29120)).isEqualTo("side,tw\nclient,2\nserver,1\n");
        assertThat(TimeWaitCounts.holders("", 29120)).isEqualTo("side,tw\nclient,0\nserver,0\n");
    }
}
