package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Experiments.java owns the list of experiments: experiments/README.md's table is generated from
 * it (make reports) and the Makefile's EXPERIMENTS (the exp-NAME targets) follow it, so neither
 * leaves a report out.
 */
class ExperimentsTableTest {
    /** Surefire runs in experiments/reports. */
    private static final Path EXPERIMENTS = Path.of("").toAbsolutePath().getParent();

    private static List<String> names() {
        List<String> names = new ArrayList<>();
        for (Experiment e : Experiments.all()) names.add(e.name());
        return names;
    }

    @Test
    void theCommittedTableIsTheGeneratedOne() throws Exception {
        String committed = Files.readString(EXPERIMENTS.resolve("README.md"));
        assertThat(ExperimentsTable.render(committed)).as("experiments/README.md's table of experiments (run make reports)").isEqualTo(committed);
    }

    @Test
    void theTableHasARowPerExperimentInTheListsOrder() throws Exception {
        Matcher row = Pattern.compile("(?m)^\\| \\[exp-([a-z-]+)]\\(exp-\\1\\.md\\) \\|").matcher(ExperimentsTable.table());
        List<String> rows = new ArrayList<>();
        while (row.find()) rows.add(row.group(1));
        assertThat(rows).isEqualTo(names()).contains("uring", "network");
        for (String name : names()) assertThat(EXPERIMENTS.resolve("exp-" + name + ".md")).exists();
    }

    @Test
    void aTableLeftBehindIsFound() {
        String stale = "<!-- BEGIN GENERATED experiments -->\n| Report | What it answers | Command |\n<!-- END GENERATED experiments -->\n";
        assertThat(ExperimentsTable.render(stale)).isNotEqualTo(stale).contains("[exp-network](exp-network.md)");
    }

    @Test
    void theMakefileRunsEveryExperimentAndNoOther() throws Exception {
        List<String> declared = new ArrayList<>();
        for (String line : Files.readAllLines(EXPERIMENTS.getParent().resolve("Makefile"))) {
            Matcher m = Pattern.compile("^EXPERIMENTS\\s*\\+?:?=\\s*(.*)$").matcher(line);
            if (m.matches()) declared.addAll(Arrays.asList(m.group(1).trim().split("\\s+")));
        }
        assertThat(declared).as("the Makefile's EXPERIMENTS").containsExactlyInAnyOrderElementsOf(names());
    }
}
