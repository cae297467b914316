package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import niolab.course.Grader;
import niolab.course.Grader.Checkpoint;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The course's generated text says only what the committed results and the checkpoint table
 * say, and the table names tests that exist: a renamed test cannot leave a checkpoint that
 * silently never runs.
 */
class LabNotesTest {
    private static final Path ROOT = Paths.get("../..").toAbsolutePath().normalize();

    @Test
    void committedNotesAndSheetsMatchTheResultsAndTheTable() throws IOException {
        assertThat(LabNotes.stale(ROOT)).as("labs files that differ from what make labs writes (run make labs)").isEmpty();
        assertThat(LabNotes.render(ROOT).keySet()).extracting(Path::toString)
                .contains("labs/instructor-notes.md", "labs/README.md", "labs/01-blocking-echo-and-rulers.md");
    }

    @Test
    void everyLabHasASheetWithItsCheckpointTableAndEverySheetHasCheckpoints() throws IOException {
        Set<Integer> labs = new TreeSet<>();
        for (Checkpoint c : checkpoints()) labs.add(c.lab());
        Set<Integer> sheets = new TreeSet<>();
        for (Path page : LabNotes.pages(ROOT)) {
            String name = page.getFileName().toString();
            if (name.equals("README.md")) continue;
            sheets.add(Integer.parseInt(name.substring(0, 2)));
            assertThat(Files.readString(page)).as(name).contains("<!-- BEGIN GENERATED checkpoints").contains("| total |");
        }
        assertThat(sheets).isEqualTo(labs).contains(1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void checkpointIdsAreUniqueWithPointsAndAModule() throws IOException {
        Set<String> ids = new HashSet<>();
        for (Checkpoint c : checkpoints()) {
            assertThat(ids.add(c.id())).as("checkpoint id %s is unique", c.id()).isTrue();
            assertThat(c.points()).as(c.id()).isPositive();
            assertThat(ROOT.resolve(c.module()).resolve("pom.xml")).as(c.id()).isRegularFile();
            assertThat(c.hint()).as(c.id()).isNotBlank();
        }
    }

    /** A test in the tree must have the method the table names, in its class or one it extends. */
    @Test
    void aCheckpointsTestInTheTreeHasTheMethodItNames() throws IOException {
        int checked = 0;
        for (Checkpoint c : checkpoints()) {
            Path tests = ROOT.resolve(c.module()).resolve("src/test");
            String path = c.testClass().replace('.', '/') + ".java";
            List<Path> sources;
            try (Stream<Path> dirs = Files.list(tests)) {
                sources = dirs.map(d -> d.resolve(path)).filter(Files::isRegularFile).toList();
            }
            if (sources.isEmpty() || c.method() == null) continue;
            assertThat(anyTestSourceDeclares(tests, c.method())).as("%s: a test method %s under %s", c.id(), c.method(), tests).isTrue();
            checked++;
        }
        assertThat(checked).as("checkpoints checked against their sources").isGreaterThan(20);
    }

    private static boolean anyTestSourceDeclares(Path tests, String method) throws IOException {
        try (Stream<Path> files = Files.walk(tests)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (Files.readString(f).contains("void " + method + "(")) return true;
            }
        }
        return false;
    }

    @Test
    void checkExitsZeroOnTheCommittedFilesAndUsageErrorsExitTwo() {
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new ExperimentReports());
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        assertThat(cl.execute("labs", "--check", ROOT.toString())).as(err.toString()).isZero();
        assertThat(cl.execute("labs")).isEqualTo(2);
    }

    private static List<Checkpoint> checkpoints() throws IOException {
        return Grader.read(ROOT.resolve("labs/checkpoints.tsv"));
    }
}
