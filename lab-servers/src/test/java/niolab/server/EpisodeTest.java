package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import niolab.server.base.Episode;
import org.junit.jupiter.api.Test;

class EpisodeTest {
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final Episode episode = new Episode("lt", new PrintStream(log, true, StandardCharsets.UTF_8), 100, 400);

    @Test
    void oneLinePerEpisodeRetriesDoublingToTheLongestNeverAtOnce() {
        assertThat(episode.failing()).isFalse();
        assertThat(episode.waitMillis()).isEqualTo(-1);
        episode.failed("redis 127.0.0.1:6379", "Connection refused", "/healthz answers 503");
        long[] intervals = new long[4];
        for (int i = 0; i < intervals.length; i++) {
            intervals[i] = episode.retryMillis();
            assertThat(episode.waitMillis()).as("the loop's wait after failure %d", i + 1).isBetween(0L, intervals[i]);
            episode.failed("redis 127.0.0.1:6379", "Connection refused", "/healthz answers 503");
        }
        assertThat(intervals).as("doubling, bounded by the longest retry").containsExactly(100, 200, 400, 400);
        assertThat(log.toString(StandardCharsets.UTF_8))
                .isEqualTo("lt: redis 127.0.0.1:6379 failed (Connection refused); /healthz answers 503" + System.lineSeparator());

        episode.over();
        assertThat(episode.failing()).isFalse();
        assertThat(episode.retryDue()).isFalse();
        episode.failed("accept", "Too many open files", "pausing accepts");
        assertThat(episode.retryMillis()).as("a new episode starts from the first retry").isEqualTo(100);
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("lt: accept failed (Too many open files); pausing accepts");
    }
}
