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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import niolab.course.Handout.MarkerException;
import niolab.course.Handout.Region;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The handout cuts exactly the marked regions and leaves no marker and no teacher-only file
 * behind; the whole course graded on demand. The gradings that every suite runs, each in a test
 * JVM of its own on one shared build ({@link GradedHandout}): {@link GradedStubsTest} (a fresh
 * handout scores below full marks), {@link GradedReferenceTest} (the reference scores full marks)
 * and {@link GradedBugsTest} (every planted mistake is caught).
 */
class HandoutTest {
    /** The lab's root, from the course module's folder (course/). */
    private static final Path LAB = Paths.get("..").toAbsolutePath().normalize();
    private static final Pattern TODO_LAB = Pattern.compile("TODO lab (\\d+)");

    private static List<String> cut(boolean withSolutions, Stubs stubs, String... lines) {
        return Handout.cut(lines, withSolutions, Paths.get("A.java"), new ArrayList<>(), stubs);
    }

    private static Stubs stubs(Path dir, String... fileAndText) throws IOException {
        for (int i = 0; i < fileAndText.length; i += 2) write(dir.resolve(fileAndText[i]), fileAndText[i + 1]);
        return Stubs.read(dir);
    }

    @Test
    void aRegionIsReplacedByItsStubIndentedAsItsMarkerWithTheMarkersGone() {
        String[] file = {
                "class A {",
                "    int f() {",
                "        // BEGIN SOLUTION answer",
                "        int x = 6 * 7;",
                "        return x;",
                "        // END SOLUTION",
                "    }",
                "}"};
        Stubs stub = Stubs.of("answer", "// TODO lab 1: compute it", "if (true) {", "    return 0;", "}");
        assertThat(cut(false, stub, file)).containsExactly("class A {", "    int f() {", "        // TODO lab 1: compute it",
                "        if (true) {", "            return 0;", "        }", "    }", "}");
        assertThat(cut(true, Stubs.of("answer", "x"), file)).containsExactly("class A {", "    int f() {", "        int x = 6 * 7;",
                "        return x;", "    }", "}");
    }

    @Test
    void shellCommentsMarkRegionsTooAndAStubMayHaveBlankLines() {
        assertThat(cut(false, Stubs.of("s", "if true; then", "  echo todo", "", "fi"), "  # BEGIN SOLUTION s", "  echo done", "  # END SOLUTION"))
                .containsExactly("  if true; then", "    echo todo", "", "  fi");
    }

    @Test
    void aRegionMarkedTwiceTakesItsStubsPartsInOrder(@TempDir Path tmp) throws IOException {
        Stubs stubs = stubs(tmp, "two.java.txt", "---- part 1 ----\nfirst();\n---- part 2 ----\n// TODO lab 2: second\nsecond();\n");
        assertThat(cut(false, stubs, "// BEGIN SOLUTION two", "a();", "// END SOLUTION", "mid();", "// BEGIN SOLUTION two", "b();", "// END SOLUTION"))
                .containsExactly("first();", "mid();", "// TODO lab 2: second", "second();");
        assertThat(stubs.unused()).isEmpty();
        assertThat(stubs.lab("two")).isEqualTo("2");
        assertThatThrownBy(() -> cut(false, stubs, "// BEGIN SOLUTION two", "// END SOLUTION"))
                .hasMessage("A.java:1: region two is marked 3 times, its stub " + tmp.resolve("two.java.txt") + " has 2 part(s)");
    }

    @Test
    void aStubNoRegionTakesIsReported(@TempDir Path tmp) throws IOException {
        Stubs stubs = stubs(tmp, "two.java.txt", "---- part 1 ----\nfirst();\n---- part 2 ----\nsecond();\n", "orphan.java.txt", "x();\n");
        cut(false, stubs, "// BEGIN SOLUTION two", "a();", "// END SOLUTION");
        assertThat(stubs.unused()).containsExactly(tmp.resolve("orphan.java.txt") + ": no region orphan in the sources",
                tmp.resolve("two.java.txt") + ": part 2 unused");
        assertThatThrownBy(() -> stubs(tmp.resolve("bad"), "p.java.txt", "---- part 2 ----\nx();\n"))
                .hasMessage(tmp.resolve("bad/p.java.txt") + ":1: part 2 where part 1 was due");
    }

    @Test
    void misplacedMarkersAndInlineStubsAreErrorsNamingTheirLine() {
        Stubs stubs = new Stubs(Map.of("a", List.of(List.of("x")), "b", List.of(List.of("y")), "never", List.of(List.of("z"))), Map.of());
        assertThatThrownBy(() -> cut(false, stubs, "// BEGIN SOLUTION a", "// BEGIN SOLUTION b"))
                .isInstanceOf(MarkerException.class).hasMessage("A.java:2: region b opens inside region a");
        assertThatThrownBy(() -> cut(false, stubs, "x", "// END SOLUTION"))
                .hasMessage("A.java:2: END SOLUTION without a region open");
        assertThatThrownBy(() -> cut(false, stubs, "// BEGIN SOLUTION b", "// STUB: x"))
                .hasMessage("A.java:2: a STUB: line: the stub's text belongs in labs/stubs/b.java.txt");
        assertThatThrownBy(() -> cut(false, stubs, "a", "// BEGIN SOLUTION never", "b"))
                .hasMessage("A.java:2: region never is never closed");
        assertThatThrownBy(() -> cut(false, stubs, "// BEGIN SOLUTION nostub", "// END SOLUTION"))
                .hasMessage("A.java:1: region nostub has no stub: write it in labs/stubs/nostub.java.txt");
    }

    @Test
    void theCopyLeavesOutBuildOutputAndTeacherOnlyFilesAndKeepsTheRest(@TempDir Path tmp) throws IOException {
        Path src = tmp.resolve("lab");
        write(src.resolve(Handout.TEACHER_ONLY), "# teacher only\nlabs/teacher-only.txt\nlabs/notes.md\nsecret/**\n");
        write(src.resolve("labs/notes.md"), "expected figures");
        write(src.resolve("labs/01-x.md"), "# Lab 1");
        write(src.resolve("secret/deep/key.txt"), "k");
        write(src.resolve("mod/target/classes/A.class"), "bytes");
        write(src.resolve(".git"), "gitdir: elsewhere");
        write(src.resolve("mod/src/A.java"), "class A {\n  // BEGIN SOLUTION r\n  int y;\n  // END SOLUTION\n}\n");
        write(src.resolve(Stubs.DIR + "/r.java.txt"), "// TODO lab 1: declare it\nint x;\n");
        String manifest = "[regions]\nr\tmod/src/A.java\tlabs/stubs/r.java.txt\n[checkpoints]\nc\t1\tmod\tT\tx\th\n[bugs]\n# a comment stays\nc\tr\tint y;\tint z;\n";
        write(src.resolve("labs/01-x/lab.tsv"), manifest);
        Path script = write(src.resolve("bin/run"), "#!/bin/sh\necho hi\n");
        script.toFile().setExecutable(true);
        Files.write(src.resolve("logo.bin"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        String page = "How to mark one:\n\n    // BEGIN SOLUTION id\n    // STUB: return;\n    // END SOLUTION\n";
        write(src.resolve("HOWTO.md"), page);

        List<Region> regions = Handout.write(src, tmp.resolve("out"), false);

        Path out = tmp.resolve("out");
        assertThat(regions).containsExactly(new Region("r", Paths.get("mod/src/A.java"), 2));
        assertThat(Files.readString(out.resolve("mod/src/A.java"))).isEqualTo("class A {\n  // TODO lab 1: declare it\n  int x;\n}\n");
        assertThat(out.resolve("labs/01-x.md")).hasContent("# Lab 1");
        assertThat(out.resolve("bin/run")).isExecutable();
        assertThat(Files.readAllBytes(out.resolve("logo.bin"))).containsExactly((byte) 0xff, (byte) 0xfe, 0, 1);
        assertThat(out.resolve("HOWTO.md")).as("a page may show the markers").hasContent(page);
        assertThat(out.resolve("labs/notes.md")).doesNotExist();
        assertThat(out.resolve("labs/teacher-only.txt")).doesNotExist();
        assertThat(out.resolve("secret")).doesNotExist();
        assertThat(out.resolve("mod/target")).doesNotExist();
        assertThat(out.resolve(".git")).doesNotExist();
        assertThat(out.resolve("HANDOUT.md")).content().contains("| 1 | r | `mod/src/A.java:2` |");
        assertThat(out.resolve("labs/01-x/lab.tsv")).as("the planted mistakes are the teacher's")
                .hasContent(manifest.replace("c\tr\tint y;\tint z;\n", ""));
        assertThat(Course.read(out).bugs()).isEmpty();
        assertThat(Handout.markersLeft(out)).isEmpty();
    }

    @Test
    void aDestinationThatIsNotEmptyIsRefusedWithExitTwo(@TempDir Path tmp) throws IOException {
        write(tmp.resolve("dest/keep.txt"), "mine");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Handout.run(new String[] {"--source", LAB.toString(), tmp.resolve("dest").toString()},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("exists and is not an empty folder");
        assertThat(Handout.run(new String[0], new PrintStream(new ByteArrayOutputStream()), new PrintStream(err))).isEqualTo(2);
    }

    /** Every region of the lab's sources, by id, with the labs its stub's TODO names. */
    @Test
    void theLabsRegionsAreWellFormedAndEachStubNamesALabThatHasASheet() throws IOException {
        Map<String, List<String>> labsByRegion = new TreeMap<>();
        try (Stream<Path> files = Files.walk(LAB)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/")
                    && !f.toString().contains("/target/")).toList()) {
                String text = Files.readString(p);
                if (!text.contains("BEGIN SOLUTION")) continue;
                List<Region> regions = new ArrayList<>();
                String stubs = String.join("\n", Handout.cut(text.split("\n", -1), false, LAB.relativize(p), regions, Stubs.read(LAB.resolve(Stubs.DIR))));
                Matcher m = TODO_LAB.matcher(stubs);
                List<String> labs = new ArrayList<>();
                while (m.find()) labs.add(m.group(1));
                for (Region r : regions) labsByRegion.computeIfAbsent(r.id(), k -> new ArrayList<>()).addAll(labs);
            }
        }
        Course course = Course.read(LAB);
        assertThat(labsByRegion).containsOnlyKeys(course.regions().keySet());
        for (Map.Entry<String, List<String>> e : labsByRegion.entrySet()) {
            assertThat(e.getValue()).as("the TODO of region %s names its lab, the one whose manifest declares it", e.getKey()).isNotEmpty()
                    .allMatch(lab -> lab.equals(Integer.toString(course.regions().get(e.getKey()).lab())));
            for (String lab : e.getValue()) {
                try (Stream<Path> sheets = Files.list(LAB.resolve("labs"))) {
                    assertThat(sheets.map(p -> p.getFileName().toString()))
                            .as("a sheet for lab %s, which region %s names", lab, e.getKey())
                            .anySatisfy(n -> assertThat(n).startsWith(String.format("%02d-", Integer.parseInt(lab))));
                }
            }
        }
    }

    /**
     * The whole of every lab, on demand ({@code -Dniolab.course.everyCheckpoint=true}: many CPU
     * minutes, too many for every {@code make test}): on the fresh handout every checkpoint fails
     * or is given (0 points, and the stubs pass it, else it would grade the student's work), so
     * that the handout scores nothing; and each region's stub alone, the other regions being the
     * reference, fails at least one checkpoint of its lab, so that no region goes ungraded. The
     * second part runs a region of each lab at a time: labs do not share regions.
     */
    @Test
    @EnabledIfSystemProperty(named = "niolab.course.everyCheckpoint", matches = "true",
            disabledReason = "the whole of every lab is graded on demand: -Dniolab.course.everyCheckpoint=true")
    @Timeout(value = 60, unit = TimeUnit.MINUTES)
    void everyCheckpointFailsOnTheStubsOrIsGivenAndEachRegionsStubAloneFailsOneOfItsLabs(@TempDir Path tmp) throws Exception {
        GradedHandout.Copy copy = GradedHandout.copy(tmp);
        Path dest = copy.dest();
        List<Region> regions = copy.regions();
        Course course = Course.read(LAB);
        List<Course.Checkpoint> table = course.checkpoints();
        for (Region r : regions) GradedHandout.write(dest, r.file(), false, Map.of());
        GradedHandout.Result stubs = GradedHandout.sh(dest, "make", "grade", "LAB=all", GradedHandout.MVN);
        Map<String, List<String>> needs = course.needs();
        for (Course.Checkpoint c : table) {
            if (Pattern.compile("\\n  " + Pattern.quote(c.id()) + " +- +n/a ").matcher(stubs.output()).find()) continue;
            if (c.given() && needs.containsKey(c.id())) {
                // it runs an earlier lab's server, a stub here too: it may fail, and the grader then names that lab's regions
                assertThat(stubs.output()).as("%s on the stubs: given, passing or naming the regions it needs", c.id())
                        .containsPattern("\\n  " + Pattern.quote(c.id()) + " +(0/0 +given |given +FAIL [^\\n]*\\n(?:[^\\n]*\\n)*? +hint: lab \\d+'s [^\\n]*: "
                                + Pattern.quote(c.id()) + " needs (?:it|them) )");
                continue;
            }
            assertThat(stubs.output()).as("%s on the stubs: %s", c.id(), c.given() ? "given, and the stubs pass it" : "fails")
                    .containsPattern("\\n  " + Pattern.quote(c.id()) + (c.given() ? " +0/0 +given " : " +0/" + c.points() + " +FAIL "));
        }

        Map<String, String> regionOf = new TreeMap<>();
        for (Course.Hint h : course.hints()) regionOf.putIfAbsent(h.id(), h.region());
        Map<String, List<String>> regionsByLab = new TreeMap<>();
        Map<String, Path> fileOf = new TreeMap<>();
        for (Region r : regions) {
            Path before = fileOf.put(r.id(), r.file());
            assertThat(before == null || before.equals(r.file())).as("region %s in one file", r.id()).isTrue();
            List<String> ofLab = regionsByLab.computeIfAbsent(Integer.toString(course.regions().get(r.id()).lab()), l -> new ArrayList<>());
            if (!ofLab.contains(r.id())) ofLab.add(r.id());
        }
        for (int k = 0; regionsByLab.values().stream().anyMatch(ofLab -> ofLab.size() > 0); k++) {
            List<String> stubbed = new ArrayList<>();
            for (List<String> ofLab : regionsByLab.values()) {
                if (!ofLab.isEmpty()) stubbed.add(ofLab.remove(0));
            }
            List<String> only = new ArrayList<>();
            for (Course.Checkpoint c : table) {
                if (!c.given() && stubbed.contains(regionOf.get(c.id()))) only.add(c.id());
            }
            for (Region r : regions) GradedHandout.write(dest, r.file(), !stubbed.contains(r.id()), Map.of());
            GradedHandout.Result graded = GradedHandout.sh(dest, "make", "grade", "LAB=all", "ONLY=" + String.join(",", only), GradedHandout.MVN);
            for (String region : stubbed) {
                List<String> ofRegion = only.stream().filter(id -> region.equals(regionOf.get(id))).toList();
                assertThat(ofRegion).as("checkpoints keyed to region %s in the manifests' [hints]", region).isNotEmpty();
                boolean allNotApplicable = ofRegion.stream()
                        .allMatch(id -> Pattern.compile("\\n  " + Pattern.quote(id) + " +- +n/a ").matcher(graded.output()).find());
                if (allNotApplicable) continue; // an older JDK, or no io_uring here
                assertThat(ofRegion).as("with only region %s a stub (round %d), one of its checkpoints fails:%n%s", region, k, graded.output())
                        .anySatisfy(id -> assertThat(graded.output()).containsPattern("\\n  " + Pattern.quote(id) + " +0/\\d+ +FAIL "));
            }
        }
        for (Region r : regions) GradedHandout.write(dest, r.file(), true, Map.of());
    }

    /**
     * Every dependency declared, on demand ({@code -Dniolab.course.dependencies=true}: a grading
     * of each lab, many CPU minutes): each lab graded with its own regions the reference and every
     * other lab's regions their stubs fails only checkpoints whose [needs] name another lab's
     * region, and under each such failure the grader names that lab first. A checkpoint that
     * fails here and declares nothing runs code of a lab the data does not name.
     */
    @Test
    @EnabledIfSystemProperty(named = "niolab.course.dependencies", matches = "true",
            disabledReason = "each lab is graded with every other lab stubbed on demand: -Dniolab.course.dependencies=true")
    @Timeout(value = 60, unit = TimeUnit.MINUTES)
    void eachLabWithEveryOtherLabsRegionsAsStubsFailsOnlyWhereItsNeedsSay(@TempDir Path tmp) throws Exception {
        GradedHandout.Copy copy = GradedHandout.copy(tmp);
        Path dest = copy.dest();
        List<Region> regions = copy.regions();
        Course course = Course.read(LAB);
        List<String> undeclared = new ArrayList<>();
        for (Course.Lab lab : course.labs()) {
            for (Region r : regions) GradedHandout.write(dest, r.file(), course.regions().get(r.id()).lab() == lab.number(), Map.of());
            GradedHandout.Result graded = GradedHandout.sh(dest, "make", "grade", "LAB=" + lab.number(), GradedHandout.MVN);
            assertThat(graded.output()).as("lab %d graded", lab.number()).doesNotContain("did the build fail").doesNotContain("timed out after");
            for (Course.Checkpoint c : lab.checkpoints()) {
                String failed = "\\n  " + Pattern.quote(c.id()) + " +(?:0/\\d+|given) +FAIL [^\\n]*\\n";
                if (!Pattern.compile(failed).matcher(graded.output()).find()) continue;
                if (!lab.needs().containsKey(c.id())) {
                    undeclared.add(c.id() + " (lab " + lab.number() + "): " + graded.output());
                    continue;
                }
                assertThat(graded.output()).as("%s's failure names the lab it needs first", c.id())
                        .containsPattern(failed + "(?: +this part came [^\\n]*\\n)? +hint: lab \\d+'s ");
            }
        }
        for (Region r : regions) GradedHandout.write(dest, r.file(), true, Map.of());
        assertThat(undeclared).as("checkpoints that failed with only their own lab's regions written: the regions they run are missing from [needs]")
                .isEmpty();
    }

    private static Path write(Path p, String text) throws IOException {
        Files.createDirectories(p.getParent());
        return Files.writeString(p, text);
    }
}
