package niolab.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CountersLineTest {
    @Test
    void formatThenParseGivesTheSameValuesInOrder() {
        String line = CountersLine.format(new String[] {"accepts", "reads", "selects"}, new long[] {3, 9, 12});
        assertThat(line).isEqualTo("accepts=3 reads=9 selects=12");
        assertThat(CountersLine.parse("counters: " + line + " events_per_wait=1.25"))
                .containsExactly(Map.entry("accepts", 3L), Map.entry("reads", 9L), Map.entry("selects", 12L));
    }

    @Test
    void parseAcceptsStatsLinesAndWorkerTags() {
        assertThat(CountersLine.parse("[w1] stats: accepts=4 closes=2")).containsEntry("accepts", 4L).containsEntry("closes", 2L);
    }

    @Test
    void lastFindsTheFinalCountersLine() {
        String out = "listening on 127.0.0.1:1 (lt, echo)\ncounters: accepts=1\n[w1] counters: accepts=7\ncounters: accepts=9\n";
        assertThat(CountersLine.last(out)).isEqualTo("counters: accepts=9");
        assertThat(CountersLine.last("nothing")).isNull();
    }
}
