package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code summarize ffi}: make bench-ffi's per-call figures, as its jq computed them for the committed run. */
class FfiCallsTest {
    private static final Path CALLS = Paths.get("..", "results", "ffi", "calls");

    private static List<Map<String, Object>> committedRun() throws Exception {
        return FfiCalls.calls(Csv.parse(Files.readString(CALLS.resolve("c.csv")), "c.csv"),
                new ObjectMapper().readTree(CALLS.resolve("jmh.json").toFile()));
    }

    @Test
    void theCommittedResultsFollowFromTheCommittedMeasurements() throws Exception {
        List<Map<String, Object>> calls = committedRun();
        JsonNode committed = new ObjectMapper().readTree(CALLS.resolve("results.json").toFile());
        assertThat(calls).hasSize(committed.size());
        for (int i = 0; i < calls.size(); i++) {
            for (Iterator<Map.Entry<String, JsonNode>> f = committed.get(i).fields(); f.hasNext(); ) {
                Map.Entry<String, JsonNode> e = f.next();
                Object mine = calls.get(i).get(e.getKey());
                if (e.getValue().isNumber()) assertThat(mine).as(e.getKey()).isEqualTo(e.getValue().asDouble());
                else assertThat(mine).as(e.getKey()).isEqualTo(e.getValue().asText());
            }
        }
        assertThat(FfiCalls.csv(calls)).isEqualTo(Files.readString(CALLS.resolve("results.csv")));
    }

    @Test
    void theCommittedTablesFollowToTheSpace() throws Exception {
        String committed = Files.readString(CALLS.resolve("table.txt"));
        assertThat(FfiCalls.tables(committedRun())).isEqualTo(committed.substring(0, committed.indexOf("\nns per call")));
    }
}
