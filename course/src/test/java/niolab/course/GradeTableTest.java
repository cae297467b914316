package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grade table a hand-in carries: kept with the hash of the sources it graded, the lab's own
 * and those of the labs it runs, so that writing a later lab leaves it current; with every
 * source's hash beside it, so that what changed since is told by content; an {@code ONLY=} run is
 * kept beside the lab's full table, never over it.
 */
class GradeTableTest {
    private static final String LT = "mod/src/main/java/Lt.java";
    private static final String ET = "mod/src/main/java/Et.java";
    private static final String VT = "mod/src/main/java/Vt.java";

    @TempDir
    Path root;

    /** Labs 2, 3 and 7, a region each in a file of its own; lab 7's checkpoint runs lab 3's region. */
    @BeforeEach
    void aTreeOfThreeLabs() throws IOException {
        write("pom.xml", "<project/>");
        write("mod/pom.xml", "<project/>");
        write("mod/src/main/java/Common.java", "class Common {}");
        write(LT, "class Lt {}");
        write(ET, "class Et {}");
        write(VT, "class Vt {}");
        write("mod/src/test/java/LtTest.java", "class LtTest {}");
        write("mod/target/classes/A.class", "build output");
        write("mod/src/main/java/.Lt.java.swp", "an editor's swap file");
        write("runs/lab2/grade.txt", "an earlier grade");
        write("labs/notes.md", "not a source");
        write("labs/02-lt/lab.tsv", "[regions]\nlt\t" + LT + "\tlabs/stubs/lt.java.txt\n[checkpoints]\nlt-echo\t1\tmod\tLtTest\tx\th\n");
        write("labs/03-et/lab.tsv", "[regions]\net\t" + ET + "\tlabs/stubs/et.java.txt\n[checkpoints]\net-echo\t1\tmod\tEtTest\tx\th\n");
        write("labs/07-vt/lab.tsv", "[regions]\nvt\t" + VT + "\tlabs/stubs/vt.java.txt\n[checkpoints]\nvt-echo\t1\tmod\tVtTest\tx\th\n"
                + "[needs]\nvt-echo\tet\n");
    }

    private void write(String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private String hash(int lab) throws IOException {
        return Sources.hash(root, Course.read(root), lab);
    }

    @Test
    void aLaterLabsRegionLeavesAnEarlierLabsHashAndTheLabsItRunsChangeIt() throws IOException {
        String lab2 = hash(2), lab7 = hash(7);
        assertThat(lab2).matches("[0-9a-f]{64}");
        write(VT, "class Vt { /* lab 7, written */ }");
        write(ET, "class Et { /* lab 3, written */ }");
        assertThat(hash(2)).as("labs 3 and 7 written: lab 2's grade still holds").isEqualTo(lab2);
        assertThat(hash(7)).as("lab 7 runs lab 3's region").isNotEqualTo(lab7);
        write(LT, "class Lt { /* lab 2, written */ }");
        assertThat(hash(2)).isNotEqualTo(lab2);
        String now = hash(2);
        write("mod/src/main/java/Common.java", "class Common { }");
        assertThat(hash(2)).as("code every lab compiles").isNotEqualTo(now);
        now = hash(2);
        write("mod/src/test/java/LtTest.java", "class LtTest { }");
        assertThat(hash(2)).as("a test").isNotEqualTo(now);
    }

    @Test
    void buildOutputRunsHiddenFilesAndProseLeaveTheHash() throws IOException {
        String before = hash(2);
        write("mod/target/classes/A.class", "rebuilt");
        write("mod/src/main/java/.Lt.java.swp", "typed");
        write("runs/lab2/grade.txt", "graded again");
        write("labs/notes.md", "edited");
        assertThat(hash(2)).isEqualTo(before);
    }

    @Test
    void theTableIsKeptWithItsHashAndTheChangedFilesAreToldByContentNotByTime() throws IOException {
        Course course = Course.read(root);
        GradeTable.keep(root, course, 2, Set.of(), "lab 2: the full table\n");
        GradeTable.keep(root, course, 2, Set.of("lt-echo"), "lab 2: one checkpoint\n");
        assertThat(Files.readString(root.resolve("runs/lab2/grade.txt"))).startsWith("$ make grade LAB=2\n")
                .contains("\n# sources sha256 " + hash(2) + "\n").endsWith("lab 2: the full table\n");
        assertThat(Files.readString(root.resolve("runs/lab2/grade-only.txt"))).startsWith("$ make grade LAB=2 ONLY=lt-echo\n")
                .contains("\n# sources sha256 " + hash(2) + "\n").endsWith("lab 2: one checkpoint\n");
        String kept = Files.readString(root.resolve("runs/lab2/grade.sha256"));
        assertThat(kept).as("as sha256sum -c reads it").containsPattern("(?m)^[0-9a-f]{64}  \\./" + LT + "$");

        Files.setLastModifiedTime(root.resolve(LT), FileTime.fromMillis(System.currentTimeMillis() + 60_000)); // a git stash and pop
        write(VT, "class Vt { /* lab 7 */ }");
        assertThat(Sources.changed(root, course, 2, kept)).as("touched, not changed; and lab 7 is not lab 2's").isEmpty();
        write(LT, "class Lt { /* edited */ }");
        write("mod/src/main/java/New.java", "class New {}");
        Files.delete(root.resolve("mod/src/test/java/LtTest.java"));
        assertThat(Sources.changed(root, course, 2, kept)).containsExactly("./" + LT, "./mod/src/main/java/New.java", "./mod/src/test/java/LtTest.java");
    }
}
