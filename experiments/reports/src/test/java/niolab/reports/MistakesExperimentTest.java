package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** exp-mistakes says the machine was shared only when its load says so. */
class MistakesExperimentTest {
    @Test
    void aLoadAboveTheCpuCountIsASharedMachine() {
        assertThat(MistakesExperiment.loadSentence(19.31, 2)).startsWith("The machine was not quiet: its 1-minute load average was 19.31");
        assertThat(MistakesExperiment.loadSentence(0.63, 2)).isEqualTo(
                "The machine was quiet: its 1-minute load average was 0.63 when the run began, on 2 CPUs.");
    }

    /** A small no-linger.csv: every number the report says of it is counted from its lines. */
    @Test
    void noLingerCountsThe431sTheClientNeverSawBySizeAndServer(@TempDir Path dir) throws IOException {
        StringBuilder csv = new StringBuilder("arch,variant,head_bytes,tries,write_failed,saw_431,then_eof,then_reset\n");
        for (String arch : new String[] {"lt", "et"}) {
            for (int i = 0; i < 4; i++) csv.append(arch).append(",correct,300000,1,0,1,1,0\n");
            // broken, 300 KB: two resets with no 431, one 431 after a failed write, one clean
            for (String t : new String[] {"1,0,0,1", "0,0,0,1", "1,1,0,1", "0,1,1,0"}) csv.append(arch).append(",broken,300000,1,").append(t).append('\n');
            for (int i = 0; i < 2; i++) csv.append(arch).append(",broken,20000,1,0,1,1,0\n");
            for (int i = 0; i < 2; i++) csv.append(arch).append(",correct,20000,1,0,1,1,0\n");
        }
        Files.writeString(dir.resolve("no-linger.csv"), csv);
        Files.writeString(dir.resolve("counters-no-linger-et-correct.txt"), "counters: accepts=6 closes=6 linger_closes=6 linger_bytes=900000\n");
        Report out = new Report();
        List<List<String>> overview = new ArrayList<>();
        MistakesExperiment.noLinger(new Results(dir), out, overview);
        assertThat(out.values.get("no_linger_et_broken")).isEqualTo("431 never seen (by a client that stops at its first error) in 3 of 6 tries (50%), 3 ended by a reset, 0 lingering closes");
        assertThat(out.values.get("no_linger_et_correct")).isEqualTo("431 never seen (by a client that stops at its first error) in 0 of 6 tries (0%), 0 ended by a reset, 6 lingering closes");
        assertThat(out.values.get("no_linger_table")).contains("| et | broken | 300 KB | 4 | 2 | 2 | 3 (75%) | 3 |")
                .contains("| et | broken | 20 KB | 2 | 0 | 0 | 0 (0%) | 0 |");
        assertThat(overview).hasSize(2);
    }

    @Test
    void resultsFromBeforeTheNoLingerScenarioSaySo(@TempDir Path dir) {
        Report out = new Report();
        MistakesExperiment.noLinger(new Results(dir), out, new ArrayList<>());
        assertThat(out.values.get("no_linger_lt_broken")).isEqualTo(MistakesExperiment.NOT_MEASURED);
    }
}
