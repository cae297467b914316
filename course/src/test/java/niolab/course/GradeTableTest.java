package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grade table a hand-in carries: kept with the hash of the sources it graded, which
 * {@code make handin} computes again (scripts/fresh.sh) to say whether they changed since; an
 * {@code ONLY=} run is kept beside the lab's full table, never over it.
 */
class GradeTableTest {
    private static final Path LAB = Paths.get("..").toAbsolutePath().normalize();

    @TempDir
    Path root;

    private void tree() throws IOException {
        write("pom.xml", "<project/>");
        write("mod/pom.xml", "<project/>");
        write("mod/src/main/java/A.java", "class A {}");
        write("mod/src/test/java/ATest.java", "class ATest {}");
        write("mod/target/classes/A.class", "build output");
        write("mod/src/main/java/.A.java.swp", "an editor's swap file");
        write("runs/lab1/grade.txt", "an earlier grade");
        write("labs/notes.md", "not a source");
    }

    private void write(String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private String shellHash() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "source \"$1\" && FRESH_ROOT=\"$2\" && sources_hash", "bash",
                LAB.resolve("scripts/fresh.sh").toString(), root.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("sources_hash ended").isTrue();
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    @Test
    void theGradersHashIsTheOneTheHandInComputes() throws Exception {
        tree();
        assertThat(Grader.sourcesHash(root)).matches("[0-9a-f]{64}").isEqualTo(shellHash());
    }

    @Test
    void aSourceChangesTheHashAndBuildOutputRunsHiddenFilesAndProseDoNot() throws Exception {
        tree();
        String before = Grader.sourcesHash(root);
        write("mod/target/classes/A.class", "rebuilt");
        write("mod/src/main/java/.A.java.swp", "typed");
        write("runs/lab1/grade.txt", "graded again");
        write("labs/notes.md", "edited");
        assertThat(Grader.sourcesHash(root)).isEqualTo(before);
        write("mod/src/test/java/ATest.java", "class ATest { }");
        String edited = Grader.sourcesHash(root);
        assertThat(edited).isNotEqualTo(before);
        assertThat(shellHash()).isEqualTo(edited);
    }

    @Test
    void anOnlyRunIsKeptBesideTheFullTableAndEachNamesTheHashOfWhatItGraded() throws Exception {
        tree();
        Grader.keep(root, 1, Set.of(), "lab 1: the full table\n");
        Grader.keep(root, 1, Set.of("bio-echo"), "lab 1: one checkpoint\n");
        Path full = root.resolve("runs/lab1/grade.txt");
        Path only = root.resolve("runs/lab1/grade-only.txt");
        assertThat(Files.readString(full)).startsWith("$ make grade LAB=1\n")
                .contains("\n# sources sha256 " + Grader.sourcesHash(root) + "\n").endsWith("lab 1: the full table\n");
        assertThat(Files.readString(only)).startsWith("$ make grade LAB=1 ONLY=bio-echo\n")
                .contains("\n# sources sha256 " + Grader.sourcesHash(root) + "\n").endsWith("lab 1: one checkpoint\n");
    }
}
