package niolab.common.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of the reader of echo-bench's JSON results, which {@code make reports}
 * reads from files people commit and edit. Its contract: a record, or an {@link
 * IllegalArgumentException} (the reader's one declared error), never another exception; and a
 * record written and read again writes the same bytes (a record read once is in the lab's own
 * form: three decimals, snake_case, no unknown field).
 */
class ResultsJsonFuzzTest {
    @FuzzTest
    void compareJson(byte[] bytes) {
        roundTrip(new String(bytes, StandardCharsets.UTF_8), BenchComparison.class);
    }

    @FuzzTest
    void benchJson(byte[] bytes) {
        roundTrip(new String(bytes, StandardCharsets.UTF_8), BenchReport.class);
    }

    private static <T> void roundTrip(String json, Class<T> type) {
        T read;
        try {
            read = ResultsJson.read(json, type);
        } catch (IllegalArgumentException refused) {
            return;
        }
        if (read == null) return; // the document "null"
        String written = ResultsJson.compact(read);
        T again = ResultsJson.read(written, type);
        assertThat(ResultsJson.compact(again)).as("written again from %s", json).isEqualTo(written);
        assertThat(ResultsJson.read(ResultsJson.pretty(again), type)).isEqualTo(again);
    }
}
