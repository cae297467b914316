package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import niolab.server.base.Counter;
import niolab.server.base.Counters;
import org.junit.jupiter.api.Test;

class CountersTest {
    @Test
    void aCountersLineReadsBackAsTheSameTable() {
        Counters c = new Counters("epoll_waits");
        long v = 1;
        for (Counter row : Counter.values()) c.add(row, v++);
        String line = c.format();
        assertThat(line).startsWith("accepts=1 accept_failures=2 closes=3 ").contains(" epoll_waits=13 events=14 ")
                .doesNotContain("live=").endsWith(" events_per_wait=1.08");
        assertThat(Counters.parse("counters: " + line, "epoll_waits").format()).isEqualTo(line);
    }

    @Test
    void extrasArePrintedOnlyWhereDeclaredAndSurviveASum() {
        Counters loop = new Counters("enters", Counter.SUBMISSIONS);
        loop.add(Counter.SUBMISSIONS, 5);
        loop.inc(Counter.WAITS);
        assertThat(loop.format()).contains(" enters=1 ").contains(" submissions=5").doesNotContain("wakeups=");
        Counters sum = new Counters("enters");
        sum.addAll(loop);
        sum.addAll(Counters.parse(loop.format(), "enters"));
        assertThat(sum.get(Counter.SUBMISSIONS)).isEqualTo(10);
        assertThat(sum.format()).contains(" enters=2 ").contains(" submissions=10");
    }

    @Test
    void everyWaitNameCountsAsWaits() {
        for (String name : Counters.WAIT_NAMES) {
            assertThat(Counters.parse(name + "=7", "selects").get(Counter.WAITS)).isEqualTo(7);
        }
    }
}
