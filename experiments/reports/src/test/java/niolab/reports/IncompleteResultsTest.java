package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import niolab.common.results.BenchComparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator refuses a results file that is not a whole run, with one line naming it: a compare
 * JSON marked partial (compare stopped by a signal), a JSON cut short, a CSV whose last line has no end.
 */
class IncompleteResultsTest {
    private static final Path COMPARE = Paths.get("..", "results", "architectures", "compare-echo-ka-1.json").toAbsolutePath().normalize();

    @Test
    void aWholeCompareRunIsRead(@TempDir Path dir) throws IOException {
        Files.copy(COMPARE, dir.resolve("c.json"));
        assertThat(new Results(dir).json("c.json", BenchComparison.class).partial()).isNull();
    }

    @Test
    void aPartialCompareRunIsRefusedByName(@TempDir Path dir) throws IOException {
        String whole = Files.readString(COMPARE, StandardCharsets.UTF_8).strip();
        Files.writeString(dir.resolve("c.json"), whole.substring(0, whole.length() - 1) + ",\"partial\":true}\n");
        assertThatThrownBy(() -> CompareRun.of(new Results(dir), "c.json", 0.02)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(dir.resolve("c.json") + " is a partial compare run (stopped by a signal before its end): run the experiment again");
    }

    @Test
    void aTruncatedJsonIsRefusedByName(@TempDir Path dir) throws IOException {
        String whole = Files.readString(COMPARE, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("c.json"), whole.substring(0, whole.length() / 2));
        assertThatThrownBy(() -> new Results(dir).json("c.json", BenchComparison.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(dir.resolve("c.json") + " is truncated (a run killed while writing it?): run the experiment again");
    }

    @Test
    void aCsvCutInItsLastLineIsRefusedByName(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("ok.csv"), "arch,qps\nlt,100\n");
        assertThat(new Results(dir).csv("ok.csv").rows()).hasSize(1);
        for (String cut : new String[] {"arch,qps\nlt,10", ""}) {
            Files.writeString(dir.resolve("cut.csv"), cut);
            assertThatThrownBy(() -> new Results(dir).csv("cut.csv")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(dir.resolve("cut.csv") + " is truncated (a run killed while writing it?): run the experiment again");
        }
    }
}
