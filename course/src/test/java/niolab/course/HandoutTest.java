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
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import niolab.course.Handout.MarkerException;
import niolab.course.Handout.Region;
import niolab.testkit.Extended;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The handout cuts exactly the marked regions, leaves no marker and no teacher-only file behind,
 * and, on the lab's own tree, gives a skeleton the grader scores below full marks, which scores
 * full marks once the reference regions are put back.
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
                String stubs = String.join("\n", Handout.cut(text.split("\n", -1), false, LAB.relativize(p), regions, labStubs()));
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
     * One checkpoint per lab that the lab's own regions decide (lab 5: its three; lab 7: one for
     * JDK 17, loops-spread, and vt-echo on 21+), the cheapest that a stub fails, each a test of the
     * lab's suites as the grader runs it. The uring checkpoints are left out to keep the two runs
     * short (each is a whole contract class); the classic-bug test grades uring-echo once.
     */
    private static final String ONE_PER_LAB = String.join(",", "bio-silent", "lt-backpressure", "et-large", "mp-restart",
            "rate-interleave", "rate-catch-up", "rate-no-drift", "http-parser", "loops-spread", "vt-echo");

    /**
     * One handout for every grading test here: each test puts the regions in the state it grades.
     * Its first {@code make grade} builds it (the stubs' state); later ones recompile only the
     * region files they rewrote ({@link #MVN}).
     */
    @TempDir
    static Path shared;
    private static Path handout;
    private static List<Region> regions;

    private static synchronized Path handout() throws Exception {
        if (handout != null) return handout;
        Path dest = shared.resolve("handout");
        regions = Handout.write(LAB, dest, false);
        seedPicocli(dest);
        return handout = dest;
    }

    /**
     * Puts the lab's own build of picocli-java17 into the handout, when the suite has built it
     * (course depends on it through test-kit, so Maven built it before these tests): a published
     * library compiled unchanged, the same in the handout as here, whose unpacking and compiling
     * were the largest part of the first grading's build. Timestamps are kept, so Maven finds it
     * up to date; target/jdk-home says which JDK built it, as make writes it, or the first
     * {@code make grade} would clean every module for a JDK it had not seen.
     */
    private static void seedPicocli(Path dest) throws IOException {
        Path built = LAB.resolve("picocli-java17/target");
        if (!Files.isDirectory(built.resolve("classes/picocli"))) return;
        try (Stream<Path> files = Files.walk(built)) {
            for (Path p : files.toList()) {
                Path to = dest.resolve("picocli-java17/target").resolve(built.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(to);
                else Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        write(dest.resolve("target/jdk-home"), System.getProperty("java.home") + "\n");
    }

    /**
     * The grader can fail and can pass, for every lab: in a fresh handout every lab scores below
     * full marks and every region's stub compiles; with the reference regions put back, every lab
     * scores full marks. One grading run covers the seven labs (a checkpoint or three each, so
     * that {@code make test-extended} stays short). The whole of each lab is graded by hand:
     * {@code make grade LAB=all}.
     */
    @Test
    @Extended
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void aFreshHandoutScoresBelowFullMarksInEveryLabAndFullMarksWithTheReferenceRegionsPutBack() throws Exception {
        Path dest = handout();
        assertThat(Handout.markersLeft(dest)).isEmpty();
        for (String teacherOnly : List.of("labs/instructor-notes.md", "labs/templates", "labs/teacher-only.txt")) {
            assertThat(dest.resolve(teacherOnly)).doesNotExist();
        }
        int labs;
        try (Stream<Path> sheets = Files.list(LAB.resolve("labs"))) {
            labs = (int) sheets.filter(p -> p.getFileName().toString().matches("\\d\\d-.*\\.md")).count();
        }

        for (Region r : regions) write(dest, r.file(), false, Map.of());
        Result skeleton = sh(dest, "make", "grade", "LAB=all", "ONLY=" + ONE_PER_LAB, MVN);
        assertThat(skeleton.code).as(skeleton.output).isNotZero();
        // Scored from the reports of lab-servers and echo-bench, built from the stubs: none missing means every stub compiles.
        assertThat(skeleton.output).as("every stub compiles and every checkpoint ran; Maven said:%n%s", log(dest))
                .doesNotContain("did the build fail").doesNotContain("did not run");
        for (String id : ONE_PER_LAB.split(",")) {
            // a checkpoint for a newer JDK (vt-echo: 21) is n/a on an older one, and scores nothing either way
            if (Runtime.version().feature() < 21 && Pattern.compile("\\n  " + Pattern.quote(id) + " +- +n/a ").matcher(skeleton.output).find()) continue;
            assertThat(skeleton.output).as("%s fails on the stubs", id).containsPattern("\\n  " + Pattern.quote(id) + " +0/[1-9]\\d* +FAIL ");
        }
        String every = IntStream.rangeClosed(1, labs).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        assertThat(skeleton.output).as("every lab below full marks").contains("\n0 of " + labs + " labs at full marks (below: lab " + every + ")");
        if (Runtime.version().feature() >= 21) assertThat(skeleton.output).doesNotContain("n/a");
        assertThat(skeleton.output).as("make grade prints the tables and the log's name, no Maven output")
                .doesNotContain("[ERROR]").doesNotContain("[INFO]").doesNotContain("grading: mvn").contains("target/grade.log");

        for (Region r : regions) write(dest, r.file(), true, Map.of());
        Result reference = sh(dest, "make", "grade", "LAB=all", "ONLY=" + ONE_PER_LAB, MVN);
        assertThat(reference.code).as(reference.output).isZero();
        assertThat(reference.output).contains("\n" + labs + " of " + labs + " labs at full marks\n").doesNotContain("FAIL");
    }

    /**
     * The whole of every lab, on demand ({@code -Dniolab.course.everyCheckpoint=true}: many CPU
     * minutes, too many for every {@code make test-extended}): on the fresh handout every checkpoint fails
     * or is given (0 points, and the stubs pass it, else it would grade the student's work), so
     * that the handout scores nothing; and each region's stub alone, the other regions being the
     * reference, fails at least one checkpoint of its lab, so that no region goes ungraded. The
     * second part runs a region of each lab at a time: labs do not share regions.
     */
    @Test
    @EnabledIfSystemProperty(named = "niolab.course.everyCheckpoint", matches = "true",
            disabledReason = "the whole of every lab is graded on demand: -Dniolab.course.everyCheckpoint=true")
    @Timeout(value = 60, unit = TimeUnit.MINUTES)
    void everyCheckpointFailsOnTheStubsOrIsGivenAndEachRegionsStubAloneFailsOneOfItsLabs() throws Exception {
        Path dest = handout();
        Course course = Course.read(LAB);
        List<Course.Checkpoint> table = course.checkpoints();
        for (Region r : regions) write(dest, r.file(), false, Map.of());
        Result stubs = sh(dest, "make", "grade", "LAB=all", MVN);
        Map<String, List<String>> needs = course.needs();
        for (Course.Checkpoint c : table) {
            if (Pattern.compile("\\n  " + Pattern.quote(c.id()) + " +- +n/a ").matcher(stubs.output).find()) continue;
            if (c.given() && needs.containsKey(c.id())) {
                // it runs an earlier lab's server, a stub here too: it may fail, and the grader then names that lab's regions
                assertThat(stubs.output).as("%s on the stubs: given, passing or naming the regions it needs", c.id())
                        .containsPattern("\\n  " + Pattern.quote(c.id()) + " +(0/0 +given |given +FAIL [^\\n]*\\n(?:[^\\n]*\\n)*? +hint: lab \\d+'s [^\\n]*: "
                                + Pattern.quote(c.id()) + " needs (?:it|them) )");
                continue;
            }
            assertThat(stubs.output).as("%s on the stubs: %s", c.id(), c.given() ? "given, and the stubs pass it" : "fails")
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
            for (Region r : regions) write(dest, r.file(), !stubbed.contains(r.id()), Map.of());
            Result graded = sh(dest, "make", "grade", "LAB=all", "ONLY=" + String.join(",", only), MVN);
            for (String region : stubbed) {
                List<String> ofRegion = only.stream().filter(id -> region.equals(regionOf.get(id))).toList();
                assertThat(ofRegion).as("checkpoints keyed to region %s in the manifests' [hints]", region).isNotEmpty();
                boolean allNotApplicable = ofRegion.stream()
                        .allMatch(id -> Pattern.compile("\\n  " + Pattern.quote(id) + " +- +n/a ").matcher(graded.output).find());
                if (allNotApplicable) continue; // an older JDK, or no io_uring here
                assertThat(ofRegion).as("with only region %s a stub (round %d), one of its checkpoints fails:%n%s", region, k, graded.output)
                        .anySatisfy(id -> assertThat(graded.output).containsPattern("\\n  " + Pattern.quote(id) + " +0/\\d+ +FAIL "));
            }
        }
        for (Region r : regions) write(dest, r.file(), true, Map.of());
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
    void eachLabWithEveryOtherLabsRegionsAsStubsFailsOnlyWhereItsNeedsSay() throws Exception {
        Path dest = handout();
        Course course = Course.read(LAB);
        List<String> undeclared = new ArrayList<>();
        for (Course.Lab lab : course.labs()) {
            for (Region r : regions) write(dest, r.file(), course.regions().get(r.id()).lab() == lab.number(), Map.of());
            Result graded = sh(dest, "make", "grade", "LAB=" + lab.number(), MVN);
            assertThat(graded.output).as("lab %d graded", lab.number()).doesNotContain("did the build fail").doesNotContain("timed out after");
            for (Course.Checkpoint c : lab.checkpoints()) {
                String failed = "\\n  " + Pattern.quote(c.id()) + " +(?:0/\\d+|given) +FAIL [^\\n]*\\n";
                if (!Pattern.compile(failed).matcher(graded.output).find()) continue;
                if (!lab.needs().containsKey(c.id())) {
                    undeclared.add(c.id() + " (lab " + lab.number() + "): " + graded.output);
                    continue;
                }
                assertThat(graded.output).as("%s's failure names the lab it needs first", c.id())
                        .containsPattern(failed + "(?: +this part came [^\\n]*\\n)? +hint: lab \\d+'s ");
            }
        }
        for (Region r : regions) write(dest, r.file(), true, Map.of());
        assertThat(undeclared).as("checkpoints that failed with only their own lab's regions written: the regions they run are missing from [needs]")
                .isEmpty();
    }

    /**
     * The classic bugs of the labs' manifests ([bugs]), each as a student makes it in its region's
     * file: the reference line, then the line that breaks it. Each is caught by the checkpoint
     * named with it, and the hint under that checkpoint names the region. Besides the classic
     * ones, each distinction a stub promises a checkpoint makes (a MISTAKE branch kept, the ops
     * resumeReading goes back to, SO_REUSEPORT left off under herd, a cancel's mark cleared) is
     * broken there too. (uring-more's checkpoints fail fast on a stall: a probe of a few seconds,
     * not the contract's 20 s socket timeouts.)
     */
    private static List<Course.Bug> bugs() throws IOException {
        return Course.read(LAB).bugs();
    }

    /**
     * The bugs in rounds, each bug in the first round that holds no other bug of its region, so
     * that no bug hides another (two bugs of one region, or of one line, are planted in turn).
     */
    private static List<List<Course.Bug>> rounds() throws IOException {
        List<List<Course.Bug>> rounds = new ArrayList<>();
        for (Course.Bug b : bugs()) {
            List<Course.Bug> round = rounds.stream().filter(r -> r.stream().noneMatch(o -> o.region().equals(b.region()))).findFirst().orElse(null);
            if (round == null) rounds.add(round = new ArrayList<>());
            round.add(b);
        }
        return rounds;
    }

    /** The grader's output for each round of {@link #rounds()}, graded once. */
    private static List<String> bugged;

    /** The grader's output for the reference with each round's bugs in: one grading run of the checkpoints they should fail. */
    private static synchronized List<String> bugged() throws Exception {
        if (bugged != null) return bugged;
        Path dest = handout();
        Course course = Course.read(LAB);
        List<String> outputs = new ArrayList<>();
        for (List<Course.Bug> round : rounds()) {
            Map<String, Map<String, String>> byFile = new TreeMap<>();
            for (Course.Bug b : round) byFile.computeIfAbsent(course.regions().get(b.region()).file(), f -> new TreeMap<>()).put(b.line(), b.broken());
            for (Region r : regions) write(dest, r.file(), true, byFile.getOrDefault(r.file().toString(), Map.of()));
            String only = round.stream().map(Course.Bug::checkpoint).collect(Collectors.joining(","));
            outputs.add(sh(dest, "make", "grade", "LAB=all", "ONLY=" + only, MVN).output);
        }
        for (Region r : regions) write(dest, r.file(), true, Map.of());
        return bugged = outputs;
    }

    /** Lab {@code lab}'s bugs are caught by their checkpoints, the hint under each names its region, and so does the last line. */
    private static void caught(int lab) throws Exception {
        List<List<Course.Bug>> rounds = rounds();
        for (int k = 0; k < rounds.size(); k++) {
            List<Course.Bug> ofLab = rounds.get(k).stream().filter(b -> b.lab() == lab).toList();
            if (!ofLab.isEmpty()) caught(lab, ofLab, bugged().get(k));
        }
    }

    /** {@link #caught(int)} in one round's output: {@code bugs}, lab {@code lab}'s in that round. */
    private static void caught(int lab, List<Course.Bug> bugs, String out) {
        Matcher table = Pattern.compile("(?s)\\nlab " + lab + ": .*?\\n  total [^\\n]*\\n[^\\n]*\\n").matcher(out);
        assertThat(table.find()).as("a table for lab %d in:%n%s", lab, out).isTrue();
        String t = table.group();
        Course.Bug first = null;
        for (Course.Bug b : bugs) {
            boolean notApplicable = Pattern.compile("\\n  " + Pattern.quote(b.checkpoint()) + " +- +n/a ").matcher(t).find();
            if (notApplicable) continue; // an older JDK, or no io_uring here: its checkpoint cannot catch it
            if (first == null) first = b;
            // a given checkpoint that fails says first that the student's code broke it
            assertThat(t).as("%s caught by %s, its hint naming the region", b.broken(), b.checkpoint())
                    .containsPattern("\\n  " + b.checkpoint() + " +(?:0/\\d+|given) +FAIL .*\\n(?: +this part came .*\\n)? +hint \\[" + b.region() + "\\]: ");
        }
        if (first == null) return;
        assertThat(t).as("the first hint and the last line name the first region").containsPattern("(?s)^[^\\[]*hint \\[" + first.region() + "\\]")
                .containsPattern("start with " + first.checkpoint() + " \\(region " + first.region() + "\\)\\n$");
    }

    /** Each lab whose manifest plants bugs, with the checkpoints that must catch them. */
    static Stream<Arguments> labsWithBugs() throws IOException {
        Map<Integer, List<String>> byLab = new TreeMap<>();
        for (Course.Bug b : bugs()) byLab.computeIfAbsent(b.lab(), l -> new ArrayList<>()).add(b.checkpoint());
        return byLab.entrySet().stream().map(e -> Arguments.of(e.getKey(), String.join(", ", e.getValue())));
    }

    /** A test per lab: its classic bugs are caught, and the hints name their regions. */
    @ParameterizedTest(name = "lab {0}: caught by {1}")
    @MethodSource("labsWithBugs")
    @Extended
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void aClassicBugInEachRegionIsCaughtAndItsHintNamesTheRegion(int lab, String checkpoints) throws Exception {
        caught(lab);
    }

    /**
     * Maven as {@code make grade} runs it, online: the suite's own build runs beside this test and
     * may not yet have fetched lab-servers' test dependencies on a new machine (offline, the
     * grading failed there). It compiles only the sources newer than their classes: between two
     * gradings only the region files change, and the default would compile lab-servers' main and
     * test trees again; and with a test JVM per core, not two: a grading run has a few classes
     * per module, and each JVM more is a start and a warm-up paid for (this test runs beside the
     * rest of the suite). Two modules at a time: echo-bench does not depend on lab-servers, so
     * its build and its checkpoints run while lab-servers' wait out the stubs' stalls.
     */
    private static final String MVN = "MVN=mvn -q -B -Dstyle.color=never -Dmaven.compiler.useIncrementalCompilation=false -Dtest.forks=1C -T 2";

    /** The handout's {@code make grade} log (Maven's and the servers' output). */
    private static String log(Path dest) throws IOException {
        Path log = dest.resolve(MavenRun.LOG);
        return Files.isRegularFile(log) ? Files.readString(log) : "(no " + MavenRun.LOG + ")";
    }

    /**
     * Writes one region file into the handout: its stubs, or its reference code with each of
     * {@code bugs}' lines (reference line to broken line) replaced.
     */
    private static void write(Path dest, Path file, boolean reference, Map<String, String> bugs) throws IOException {
        String text = String.join("\n", Handout.cut(Files.readString(LAB.resolve(file)).split("\n", -1), reference, file, new ArrayList<>(), labStubs()));
        for (Map.Entry<String, String> bug : bugs.entrySet()) {
            assertThat(text).as("%s still holds the line a bug replaces", file).contains(bug.getKey());
            text = text.replace(bug.getKey(), bug.getValue());
        }
        Files.writeString(dest.resolve(file), text);
    }

    /** The lab's stubs, read afresh: each file's regions take their parts from the first. */
    private static Stubs labStubs() throws IOException {
        return Stubs.read(LAB.resolve(Stubs.DIR));
    }

    private record Result(int code, String output) {
    }

    /** Runs a command in {@code dir} on this test's JDK, for at most ten minutes (a loaded machine); its exit code and output. */
    private static Result sh(Path dir, String... cmd) throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir.getParent(), "cmd", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly); // Maven, its forked test JVM
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return new Result(-1, "timed out after 10 minutes: " + String.join(" ", cmd) + "\n" + Files.readString(log));
        }
        return new Result(p.exitValue(), Files.readString(log));
    }

    private static Path write(Path p, String text) throws IOException {
        Files.createDirectories(p.getParent());
        return Files.writeString(p, text);
    }
}
