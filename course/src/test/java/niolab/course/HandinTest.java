package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code make handin} (scripts/handin.sh) hands in, run in a small handout of two labs: the
 * diff of the lab's own region files against the handout's commit, and one line each when the
 * grade is partial or older than the sources, or a recorded run lacked fresh jars.
 */
class HandinTest {
    private static final Path LAB = Paths.get("..").toAbsolutePath().normalize();
    /** The course tools from this build's classes: make handin runs target/course-tools.jar, which make builds. */
    private static final String TOOLS = Paths.get(System.getProperty("java.home"), "bin", "java") + " -cp "
            + Tools.class.getProtectionDomain().getCodeSource().getLocation().getPath() + " niolab.course.Tools";
    private static final String BIO = "mod/src/main/java/Bio.java";
    private static final String LT = "mod/src/main/java/Lt.java";
    private static final String ET = "mod/src/main/java/Et.java";

    @TempDir
    Path root;

    @BeforeEach
    void aHandoutOfTwoLabs() throws Exception {
        for (String script : List.of("scripts/handin.sh", "scripts/fresh.sh", "scripts/jdk.sh")) {
            write(script, Files.readString(LAB.resolve(script)));
        }
        write("labs/01-bio/lab.tsv", "[regions]\nbio-region\t" + BIO + "\tlabs/stubs/bio-region.java.txt\n"
                + "[checkpoints]\nbio-echo\t3\tmod\tniolab.BioTest\tan echo\ta hint\n");
        // lab 2's checkpoint may blame lab 1's region too: that does not make it lab 2's
        write("labs/02-lt/lab.tsv", "[regions]\nlt-region\t" + LT + "\tlabs/stubs/lt-region.java.txt\n"
                + "[checkpoints]\nlt-echo\t3\tmod\tniolab.LtTest\tan echo\ta hint\n"
                + "[hints]\nlt-echo\tbio-region\tstill a stub\t-\nlt-echo\tlt-region\t*\t-\n");
        write("labs/03-et/lab.tsv", "[regions]\net-region\t" + ET + "\tlabs/stubs/et-region.java.txt\n"
                + "[checkpoints]\net-echo\t3\tmod\tniolab.EtTest\tan echo\ta hint\n[needs]\net-echo\tlt-region\n");
        write("HANDOUT.md", "# handout\n");
        write(ET, "class Et {\n    // TODO lab 3\n}\n");
        write("mod/pom.xml", "<project/>\n");
        write(BIO, "class Bio {\n    // TODO lab 1\n}\n");
        write(LT, "class Lt {\n    // TODO lab 2\n}\n");
        run("git", "-c", "init.defaultBranch=main", "init", "-q");
        run("git", "add", "-A");
        run("git", "-c", "user.name=t", "-c", "user.email=t@localhost", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "handout");
    }

    private void write(String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private String run(String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true);
        pb.environment().put("HOME", root.toString()); // no user's git configuration
        pb.environment().put("COURSE_TOOLS", TOOLS);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", cmd) + " ended").isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
        return out;
    }

    private String handin(int lab) throws Exception {
        run("env", "LAB=" + lab, "DEST=handin.md", "bash", "scripts/handin.sh");
        return Files.readString(root.resolve("handin.md"));
    }

    /** A grade table of lab 1 as the grader keeps it, with every source's hash beside it as they are now. */
    private void grade(String file, String command, String hash) throws IOException {
        write("runs/lab1/" + file, "$ " + command + "\n# graded 2026-01-01T00:00:00Z on JDK 17\n# sources sha256 " + hash
                + "\n\nlab 1: a lab\n  bio-echo  3/3  pass  an echo\n");
        write("runs/lab1/" + file.replace(".txt", ".sha256"), Sources.lines(root, Sources.all(root)));
    }

    private String hash(int lab) throws IOException {
        return Sources.hash(root, Course.read(root), lab);
    }

    @Test
    void aPartialGradeOfOlderSourcesAndAStaleRunAreEachSaidAboveTheDiffOfTheLabsOwnRegion() throws Exception {
        grade("grade-only.txt", "make grade LAB=1 ONLY=bio-echo", hash(1));
        try (var files = Files.walk(root)) { // the handout's files older than the grade, the grade older than the edit below
            for (Path f : files.filter(Files::isRegularFile).toList()) Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(0));
        }
        Files.setLastModifiedTime(root.resolve("runs/lab1/grade-only.txt"), java.nio.file.attribute.FileTime.fromMillis(1_000));
        write(BIO, "class Bio {\n    // served on a thread of its own\n}\n");
        write("runs/lab1/20260101-000000-echo-bench.txt", "$ bin/echo-bench\n# exit status 0\n"
                + "# jars: stale: lab-servers/target/lab-servers.jar is older than " + BIO + "\n");

        String handin = handin(1);

        assertThat(handin).contains("### " + BIO + " (bio-region)", "+    // served on a thread of its own", "-    // TODO lab 1")
                .doesNotContain(LT)
                .contains("- the grade table is partial, from make grade LAB=1 ONLY=bio-echo")
                .contains("- the sources changed after the grade (2026-01-01T00:00:00Z), in " + BIO + ": the table may not be this code's")
                .contains("- runs/lab1/20260101-000000-echo-bench.txt was recorded without fresh jars (lab-servers/target/lab-servers.jar is older than");
    }

    @Test
    void aWholeGradeOfTheseSourcesAndFreshRunsLeaveNothingToSay() throws Exception {
        write(BIO, "class Bio {\n    // served on a thread of its own\n}\n");
        grade("grade.txt", "make grade LAB=1", hash(1));
        write("runs/lab1/20260101-000000-echo-bench.txt", "$ bin/echo-bench\n# exit status 0\n# jars: fresh\n");
        write("runs/lab1/strace.txt", "% time     seconds  usecs/call     calls    errors syscall\n");
        write(LT, "class Lt {\n    // lab 2, written after lab 1's grade\n}\n");

        String handin = handin(1);

        assertThat(handin).as("lab 2 written after lab 1's grade: the grade still holds")
                .contains("Nothing: the grade is of these sources", "+    // served on a thread of its own")
                .contains("## runs/lab1/strace.txt", "% time     seconds")
                .doesNotContain("partial", "changed after", "without fresh jars", "does not say whether");
        assertThat(handin(2)).contains("### " + LT + " (lt-region)").doesNotContain(BIO);
        assertThat(handin(3)).as("lab 3's checkpoint runs lab 2's region: its diff is handed in too")
                .contains("### " + ET + " (et-region)", "### " + LT + " (lt-region, lab 2's, which this lab runs)",
                        "lab 3's regions are unchanged since the handout")
                .doesNotContain(BIO);
    }

    @Test
    void aPartialGradeLaterThanTheWholeOneIsShownAfterItAndSaidWhenItIsOfTheseSources() throws Exception {
        grade("grade.txt", "make grade LAB=1", "0".repeat(64));
        write(BIO, "class Bio {\n    // served on a thread of its own\n}\n");
        grade("grade-only.txt", "make grade LAB=1 ONLY=bio-echo", hash(1));
        Files.setLastModifiedTime(root.resolve("runs/lab1/grade.txt"), java.nio.file.attribute.FileTime.fromMillis(0));

        String handin = handin(1);

        assertThat(handin).contains("- the sources changed after the grade (2026-01-01T00:00:00Z)")
                .contains("- a later partial grade, make grade LAB=1 ONLY=bio-echo, is of these sources (shown below the full table)")
                .contains("## The grade: runs/lab1/grade.txt", "## The later partial grade: runs/lab1/grade-only.txt")
                .doesNotContain("the grade table is partial");
    }
}
