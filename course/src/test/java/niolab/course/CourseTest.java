package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The labs' manifests as every course tool reads them: each lab's tables under its sections, a
 * row or a name out of place an error naming its file; and the tools' jar, of the JDK alone, that
 * answers make handin's questions from them.
 */
class CourseTest {
    private static final Path LAB = Paths.get("..").toAbsolutePath().normalize();

    @TempDir
    Path root;

    private void lab(String folder, String manifest) throws IOException {
        Path f = root.resolve("labs").resolve(folder).resolve("lab.tsv");
        Files.createDirectories(f.getParent());
        Files.writeString(f, manifest);
    }

    @Test
    void aManifestsSectionsGiveTheLabsRegionsCheckpointsHintsNeedsAndBugs() throws IOException {
        lab("02-lt", "# lab 2\n[regions]\nlt\tm/Lt.java\tlabs/stubs/lt.java.txt\n\n[checkpoints]\n# id ...\nlt-echo\t3\tm\tniolab.LtTest#echo\tan echo\thint\n"
                + "[hints]\nlt-echo\tlt\tstalled\tthe stall\n[bugs]\nlt-echo\tlt\ta();\\n  b();\tc();\n");
        lab("07-vt", "[regions]\nvt\tm/Vt.java\tlabs/stubs/vt.java.txt\n[checkpoints]\nvt-echo\t2\tm\tniolab.VtTest\tx\th\n"
                + "[needs]\nvt-echo\tlt\nsteps\tlt\n");
        Course course = Course.read(root);
        assertThat(course.labs()).extracting(Course.Lab::number).containsExactly(2, 7);
        assertThat(course.lab(2).sheet()).isEqualTo("labs/02-lt.md");
        assertThat(course.regions().get("vt")).isEqualTo(new Course.Region("vt", 7, "m/Vt.java", "labs/stubs/vt.java.txt"));
        assertThat(course.checkpoints()).extracting(Course.Checkpoint::id).containsExactly("lt-echo", "vt-echo");
        assertThat(course.hints().get(0).when().matcher("it STALLED").find()).isTrue();
        assertThat(course.bugs()).containsExactly(new Course.Bug(2, "lt-echo", "lt", "a();\n  b();", "c();"));
        assertThat(course.needs()).as("the sheet's steps are no checkpoint's").containsOnlyKeys("vt-echo");
        assertThat(course.gradedWith(7)).containsExactly(2, 7);
        assertThat(course.gradedWith(2)).containsExactly(2);
    }

    @Test
    void aRowOrANameOutOfPlaceIsAnErrorNamingItsFile() throws IOException {
        lab("02-lt", "[regions]\nlt\tm/Lt.java\tlabs/stubs/lt.java.txt\n[checkpoints]\nlt-echo\t3\tm\tT\tx\th\n[hint]\n");
        assertThatThrownBy(() -> Course.read(root)).isInstanceOf(IllegalStateException.class).hasMessageContaining("02-lt/lab.tsv:5: no section [hint]");
        lab("02-lt", "lt\tm/Lt.java\tlabs/stubs/lt.java.txt\n");
        assertThatThrownBy(() -> Course.read(root)).hasMessageEndingWith("02-lt/lab.tsv:1: a row before any [section]");
    }

    @Test
    void hintsNeedsAndBugsNameDeclaredCheckpointsAndRegions() throws IOException {
        lab("02-lt", "[regions]\nlt\tm/Lt.java\tlabs/stubs/lt.java.txt\n[checkpoints]\nlt-echo\t3\tm\tT\tx\th\n[hints]\nlt-echo\tet\t*\t-\n");
        assertThatThrownBy(() -> Course.read(root)).hasMessageEndingWith("a hint of lt-echo names region et, which no lab declares");
        lab("02-lt", "[checkpoints]\nlt-echo\t3\tm\tT\tx\th\n[needs]\nlt-ech\tlt\n");
        assertThatThrownBy(() -> Course.read(root)).hasMessageEndingWith("a need of checkpoint lt-ech, which no lab declares");
        lab("02-lt", "[checkpoints]\nlt-echo\tthree\tm\tT\tx\th\n");
        assertThatThrownBy(() -> Course.read(root)).hasMessageEndingWith("checkpoint lt-echo: the points are a whole number, not 'three'");
    }

    /** The tools' jar is built by javac alone: its package may use the JDK and itself, nothing else. */
    @Test
    void theToolsPackageUsesTheJdkAlone() throws IOException {
        Pattern imports = Pattern.compile("(?m)^import (?:static )?([\\w.]+)");
        List<Path> sources;
        try (Stream<Path> files = Files.list(LAB.resolve("course/src/main/java/niolab/course"))) {
            sources = files.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertThat(sources).hasSizeGreaterThan(5);
        for (Path f : sources) {
            Matcher m = imports.matcher(Files.readString(f));
            while (m.find()) {
                assertThat(m.group(1)).as("%s imports", f.getFileName()).matches("(java|javax|org\\.w3c|org\\.xml)\\..*|niolab\\.course\\.[A-Z]\\w*(\\.\\w+)?");
            }
        }
    }

    @Test
    void aGradeCoversItsOwnAndNeededRegionFilesAndTheToolsRefuseBadUsage() throws IOException {
        lab("02-lt", "[regions]\nlt\tm/src/Lt.java\tlabs/stubs/lt.java.txt\n[checkpoints]\nlt-echo\t3\tm\tT\tx\th\n");
        lab("03-et", "[regions]\net\tm/src/Et.java\tlabs/stubs/et.java.txt\n[checkpoints]\net-echo\t3\tm\tT\tx\th\n[needs]\net-echo\tlt\n");
        Files.createDirectories(root.resolve("m/src"));
        Files.writeString(root.resolve("m/src/Lt.java"), "class Lt {}");
        Files.writeString(root.resolve("m/src/Et.java"), "class Et {}");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8), e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(Tools.run(new String[] {"regions", "--lab", "x"}, o, e)).isEqualTo(2);
        assertThat(Tools.run(new String[] {"frob"}, o, e)).isEqualTo(2);
        assertThat(Tools.run(new String[0], o, e)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: regions --lab N\n");
        assertThat(Sources.graded(root, Course.read(root), 2)).as("lab 3's file is not lab 2's").containsExactly("./m/src/Lt.java");
        assertThat(Sources.graded(root, Course.read(root), 3)).as("lab 3 runs lab 2's region").containsExactly("./m/src/Et.java", "./m/src/Lt.java");
    }
}
