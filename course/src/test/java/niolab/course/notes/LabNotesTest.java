package niolab.course.notes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import niolab.course.Course;
import niolab.course.Course.Checkpoint;
import niolab.reports.Report;
import niolab.reports.Results;
import niolab.reports.ShortRunExperiment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The course's generated text says only what the committed results and the checkpoint table
 * say, and the table names tests that exist: a renamed test cannot leave a checkpoint that
 * silently never runs.
 */
class LabNotesTest {
    private static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();

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
            assertThat(c.points()).as("%s: points, or 0 for a given checkpoint", c.id()).isNotNegative();
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
        CommandLine cl = new CommandLine(new LabNotes());
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        assertThat(cl.execute("--check", ROOT.toString())).as(err.toString()).isZero();
        assertThat(cl.execute()).isEqualTo(2);
    }

    /** bio, vt and uring join the serial ruler's ranges when exp-short-run committed them; until then a sentence names each missing one. */
    @Test
    void serialRangesNameTheCourseServersWithNoCommittedRunAndRangeThoseWithOne(@TempDir Path tmp) throws IOException {
        Path committed = ROOT.resolve("experiments/results/short-run");
        for (String arch : ShortRunExperiment.ARCHS) Files.copy(committed.resolve("serial-" + arch + ".json"), tmp.resolve("serial-" + arch + ".json"));
        Report none = new Report();
        LabNotes.serialRanges(new Results(tmp), none);
        assertThat(none.values().get("notes:serial_qps")).startsWith("LT ").contains("ET ", "MP ").doesNotContain("BIO", "VT", "URING");
        assertThat(none.values().get("notes:serial_missing"))
                .isEqualTo(" No committed run holds `bio`, `vt` and `uring` on the serial ruler (experiments/results/short-run/ has no "
                        + "serial-bio.json, serial-vt.json, serial-uring.json): `make exp-short-run` runs them.");

        Files.copy(committed.resolve("serial-lt.json"), tmp.resolve("serial-bio.json")); // a fixture: bio's file, LT's figures
        Files.copy(committed.resolve("serial-et.json"), tmp.resolve("serial-vt.json"));
        Report some = new Report();
        LabNotes.serialRanges(new Results(tmp), some);
        String qps = some.values().get("notes:serial_qps");
        String lt = qps.substring(3, qps.indexOf(','));
        String et = qps.substring(qps.indexOf("ET ") + 3, qps.indexOf(", MP"));
        assertThat(qps).endsWith(", BIO " + lt + ", VT " + et);
        assertThat(some.values().get("notes:serial_p50")).contains(", BIO ", ", VT ").doesNotContain("URING");
        assertThat(some.values().get("notes:serial_missing")).startsWith(" No committed run holds `uring` on")
                .contains("has no serial-uring.json)").endsWith("runs it.");

        Files.copy(committed.resolve("serial-mp.json"), tmp.resolve("serial-uring.json"));
        Report all = new Report();
        LabNotes.serialRanges(new Results(tmp), all);
        assertThat(all.values().get("notes:serial_missing")).isEmpty();
        assertThat(all.values().get("notes:serial_qps")).contains(", URING ");
    }

    @Test
    void aRunInForksIsReadFromEveryForksServerLogAllEventsOverAllWaits(@TempDir Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("servers/keepalive-1"));
        Files.createDirectories(tmp.resolve("servers/keepalive-16"));
        Files.createDirectories(tmp.resolve("servers/short-1"));
        Files.writeString(tmp.resolve("servers/keepalive-1/lt-fork-1.log"), "listening\ncounters: accepts=1 selects=100 events=100\n");
        Files.writeString(tmp.resolve("servers/keepalive-16/lt-fork-2.log"), "counters: accepts=16 selects=100 events=500\n");
        Files.writeString(tmp.resolve("servers/keepalive-16/et-fork-1.log"), "counters: accepts=16 epoll_waits=10 events=80\n");
        Files.writeString(tmp.resolve("servers/short-1/mp-fork-1.log"), "[w1] counters: accepts=30 events=1\n[w2] counters: accepts=10 events=1\n");
        Files.writeString(tmp.resolve("servers/short-1/mp-fork-2.log"), "[w1] counters: accepts=10 events=1\n[w2] counters: accepts=50 events=1\n");
        Results run = new Results(tmp);
        List<String> lt = LabNotes.seriesLogs(run, "keepalive", "lt");
        assertThat(lt).containsExactly("servers/keepalive-1/lt-fork-1.log", "servers/keepalive-16/lt-fork-2.log");
        assertThat(LabNotes.eventsPerWait(run, lt)).as("600 events over 200 selects, not the mean of 1 and 5").isEqualTo(3.0);
        assertThat(LabNotes.eventsPerWait(run, LabNotes.seriesLogs(run, "keepalive", "et"))).isEqualTo(8.0);
        StringBuilder mp = new StringBuilder();
        for (String log : LabNotes.seriesLogs(run, "short", "mp")) mp.append(run.text(log));
        assertThat(LabNotes.acceptSplit(mp.toString())).isEqualTo("w1 40.0%, w2 60.0% of 100 connections");
        assertThatThrownBy(() -> LabNotes.seriesLogs(run, "short", "lt")).hasMessageContaining("server-short-lt.log is missing");
        Files.writeString(tmp.resolve("server-keepalive-lt.log"), "counters: accepts=1 selects=4 events=2\n");
        assertThat(LabNotes.seriesLogs(run, "keepalive", "lt")).as("a run that kept one server up").containsExactly("server-keepalive-lt.log");
    }

    @Test
    void gradeTimesAreQuotedFromTheirFileOrSaidToBeMissing(@TempDir Path tmp) throws IOException {
        assertThat(GradeTimes.block(tmp)).startsWith("No grading times are committed (`labs/grade-times.tsv` is missing)");
        Path file = tmp.resolve(GradeTimes.FILE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", "# a fixture, not a measurement",
                "date\t2026-12-02", "cpu\tTest CPU", "nproc\t2", "kernel\t6.1.0", "jdk\tJDK 25 (/jdk)", "maven\tmvn -o -q -B",
                "load_before\t0.10 0.20 0.30", "load_after\t1.50 0.90 0.40", "wall_seconds\t412",
                "lab\ttree\tseconds\tearned\tpossible\texit",
                "2\treference\t61\t13\t13\t0", "3\treference\t70\t16\t16\t0", "2\tstubs\t48\t4\t13\t1", "3\tstubs\t151\t0\t16\t1", ""));
        String block = GradeTimes.block(tmp);
        assertThat(block).contains("on 2026-12-02: Test CPU, 2 cores, Linux 6.1.0, JDK 25 (/jdk), Maven as `mvn -o -q -B`")
                .contains("load average (1, 5, 15 min) 0.10 0.20 0.30 before, 1.50 0.90 0.40 after")
                .contains("Labs timed: 2, 3; the slowest, lab 3 on the stubs, took 151 s; the whole run, builds included, 412 s.")
                .contains("| lab 2 | 61 s, 13 of 13 points | 48 s, 4 of 13 points |")
                .contains("| lab 3 | 70 s, 16 of 16 points | 151 s, 0 of 16 points |");
        List<Checkpoint> now = List.of(new Checkpoint(2, "a", 11, "m", "T", "x", "h"), new Checkpoint(3, "b", 16, "m", "T", "x", "h"));
        assertThat(GradeTimes.block(tmp, now)).as("lab 2's points changed since: its scores are not quoted")
                .contains("| lab 2 | 61 s (scored on an older checkpoint table: rerun `make grade-times`) | 48 s (scored on an older")
                .contains("| lab 3 | 70 s, 16 of 16 points | 151 s, 0 of 16 points |");

        Files.writeString(file, "date\t2026-12-02\nlab\ttree\tseconds\tearned\tpossible\texit\n2\treference\t61\n");
        assertThatThrownBy(() -> GradeTimes.block(tmp)).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("labs/grade-times.tsv:3: ");
    }

    @Test
    void aSheetsNeedsLineNamesTheLabsWhoseRegionsItsCheckpointsAndStepsRun(@TempDir Path tmp) throws IOException {
        Map<String, String> manifests = Map.of(
                "01-bio", "[regions]\nbio\tm/B.java\tlabs/stubs/bio.java.txt\n[checkpoints]\nbio-echo\t1\tm\tT\tx\th\n",
                "03-et", "[regions]\net-accept\tm/A.java\ts\net-read\tm/R.java\ts\n[checkpoints]\net-echo\t1\tm\tT\tx\th\n",
                "07-vt", "[checkpoints]\nloops-et\t1\tm\tT\tx\th\nloops-herd\t1\tm\tT\tx\th\n"
                        + "[needs]\nloops-et\tet-accept, et-read\nloops-herd\tet-read\nsteps\tbio\n");
        for (Map.Entry<String, String> m : manifests.entrySet()) {
            Files.createDirectories(tmp.resolve("labs").resolve(m.getKey()));
            Files.writeString(tmp.resolve("labs").resolve(m.getKey()).resolve("lab.tsv"), m.getValue());
        }
        Course course = Course.read(tmp);
        assertThat(LabNotes.needsLine(course, 7)).isEqualTo("Needs: lab 1's `bio` (run by this sheet's steps); "
                + "lab 3's `et-accept`, `et-read` (run by `loops-et`, `loops-herd`).");
        assertThat(LabNotes.needsLine(course, 1)).startsWith("Needs: no other lab's code");
        // the short course takes the labs whose code its labs run
        assertThat(course.withNeeds(List.of(7))).containsExactly(1, 3, 7);
        assertThat(LabNotes.shortCourse(course, "<!-- BEGIN GENERATED shortcourse 7 (make labs) -->\n"))
                .isEqualTo("A class short of time can take labs 1, 3 and 7: lab 7, with the labs whose code they run (each sheet's needs line says which).");
        assertThatThrownBy(() -> LabNotes.shortCourse(course, "<!-- BEGIN GENERATED shortcourse -->\n")).hasMessageContaining("names the labs");
    }

    /** make labs fills the root README's gradetimes block and leaves make reports' blocks as they are. */
    @Test
    void theReadmesGradeTimesBlockIsFilledAndItsOtherBlocksAreLeftAlone() {
        String readme = "a\n<!-- BEGIN GENERATED findings: make reports -->\nold\n<!-- END GENERATED findings -->\n"
                + "<!-- BEGIN GENERATED gradetimes: make labs -->\nold\n<!-- END GENERATED gradetimes -->\nz\n";
        assertThat(LabNotes.fillGradeTimes(readme, "new"))
                .isEqualTo(readme.replace("gradetimes: make labs -->\nold", "gradetimes: make labs -->\nnew"));
    }

    private static List<Checkpoint> checkpoints() throws IOException {
        return Course.read(ROOT).checkpoints();
    }
}
