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
import niolab.course.Handout.Stubs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
        write(src.resolve(Handout.STUBS + "/r.java.txt"), "// TODO lab 1: declare it\nint x;\n");
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
        assertThat(labsByRegion).containsOnlyKeys("bio-thread-per-connection", "lt-interest-ops", "et-accept", "et-read",
                "mp-restart", "http-pipelining", "rate-schedule", "round-order", "loops-reuseport", "vt-serve", "uring-more");
        for (Map.Entry<String, List<String>> e : labsByRegion.entrySet()) {
            assertThat(e.getValue()).as("the TODO of region %s names its lab", e.getKey()).isNotEmpty();
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
     * that {@code make test} stays short). The whole of each lab is graded by hand:
     * {@code make grade LAB=all}.
     */
    @Test
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
    void everyCheckpointFailsOnTheStubsOrIsGivenAndEachRegionsStubAloneFailsOneOfItsLabs() throws Exception {
        Path dest = handout();
        List<Grader.Checkpoint> table = Grader.read(LAB.resolve(Grader.TABLE));
        for (Region r : regions) write(dest, r.file(), false, Map.of());
        Result stubs = sh(dest, "make", "grade", "LAB=all", MVN);
        Map<String, List<String>> needs = Grader.readNeeds(LAB.resolve(Grader.NEEDS));
        for (Grader.Checkpoint c : table) {
            if (Pattern.compile("\\n  " + Pattern.quote(c.id()) + " +- +n/a ").matcher(stubs.output).find()) continue;
            if (c.given() && needs.containsKey(c.id())) {
                // it runs an earlier lab's server, a stub here too: it may fail, and the grader then names that lab's regions
                assertThat(stubs.output).as("%s on the stubs: given, passing or naming the regions it needs", c.id())
                        .containsPattern("\\n  " + Pattern.quote(c.id()) + " +(0/0 +given |given +FAIL [^\\n]*\\n(?:[^\\n]*\\n)*? +hint: "
                                + Pattern.quote(c.id()) + " needs lab )");
                continue;
            }
            assertThat(stubs.output).as("%s on the stubs: %s", c.id(), c.given() ? "given, and the stubs pass it" : "fails")
                    .containsPattern("\\n  " + Pattern.quote(c.id()) + (c.given() ? " +0/0 +given " : " +0/" + c.points() + " +FAIL "));
        }

        Map<String, String> regionOf = new TreeMap<>();
        for (Grader.Hint h : Grader.readHints(LAB.resolve(Grader.HINTS))) regionOf.putIfAbsent(h.id(), h.region());
        Stubs stubFiles = labStubs();
        Map<String, List<String>> regionsByLab = new TreeMap<>();
        Map<String, Path> fileOf = new TreeMap<>();
        for (Region r : regions) {
            Path before = fileOf.put(r.id(), r.file());
            assertThat(before == null || before.equals(r.file())).as("region %s in one file", r.id()).isTrue();
            List<String> ofLab = regionsByLab.computeIfAbsent(stubFiles.lab(r.id()), l -> new ArrayList<>());
            if (!ofLab.contains(r.id())) ofLab.add(r.id());
        }
        for (int k = 0; regionsByLab.values().stream().anyMatch(ofLab -> ofLab.size() > 0); k++) {
            List<String> stubbed = new ArrayList<>();
            for (List<String> ofLab : regionsByLab.values()) {
                if (!ofLab.isEmpty()) stubbed.add(ofLab.remove(0));
            }
            List<String> only = new ArrayList<>();
            for (Grader.Checkpoint c : table) {
                if (!c.given() && stubbed.contains(regionOf.get(c.id()))) only.add(c.id());
            }
            for (Region r : regions) write(dest, r.file(), !stubbed.contains(r.id()), Map.of());
            Result graded = sh(dest, "make", "grade", "LAB=all", "ONLY=" + String.join(",", only), MVN);
            for (String region : stubbed) {
                List<String> ofRegion = only.stream().filter(id -> region.equals(regionOf.get(id))).toList();
                assertThat(ofRegion).as("checkpoints keyed to region %s in labs/hints.tsv", region).isNotEmpty();
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
     * A classic bug in each region, as a student makes it: the reference line, then the line that
     * breaks it. Each is caught by the checkpoint named with it, and the hint under that
     * checkpoint names the region. Besides the classic ones, each distinction a stub promises a
     * checkpoint makes (a MISTAKE branch kept, the ops resumeReading goes back to, SO_REUSEPORT
     * left off under herd, a cancel's mark cleared) is broken here too. (uring-more's checkpoints
     * fail fast on a stall: a probe of a few seconds, not the contract's 20 s socket timeouts.)
     */
    private static final List<Bug> BUGS = List.of(
            new Bug(1, "bio-silent", "bio-thread-per-connection", "lab-servers/src/main/java/niolab/server/bio/BlockingServer.java",
                    "t.start();", "t.run(); // serves on the accepting thread"),
            new Bug(2, "lt-backpressure", "lt-interest-ops", "lab-servers/src/main/java/niolab/server/lt/LevelTriggeredServer.java",
                    "key.interestOps(SelectionKey.OP_WRITE);", "key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE); // reads on while output is pending"),
            new Bug(3, "et-burst", "et-accept", "lab-servers/src/main/java/niolab/server/et/EdgeTriggeredServer.java",
                    "if (mistakes.acceptOnce) return;", "if (accepted > 0) return; // one accept per edge"),
            new Bug(3, "et-large", "et-read", "lab-servers/src/main/java/niolab/server/et/EdgeTriggeredEchoServer.java",
                    "if (mistakes.readOnce) return;", "if (n > 0) return; // one read per edge"),
            new Bug(4, "mp-give-up", "mp-restart", "lab-servers/src/main/java/niolab/server/mp/MultiProcessMaster.java",
                    "long delayMs = life.ready ? 0 : Math.min(FIRST_RETRY_DELAY_MS << (w.failedStartsInARow - 1), MAX_RETRY_DELAY_MS);",
                    "long delayMs = 0; // no back-off"),
            new Bug(5, "rate-no-drift", "rate-schedule", "echo-bench/src/main/java/niolab/bench/RateSchedule.java",
                    "return startNanos + (long) ((index + (double) j * connections) * nanosPerRequest);",
                    "return startNanos + (index + j * connections) * (long) nanosPerRequest; // truncated, then multiplied"),
            new Bug(5, "round-uniform", "round-order", "echo-bench/src/main/java/niolab/bench/Compare.java",
                    "int j = random.nextInt(i + 1);", "int j = random.nextInt(visit.length); // any slot: some orders likelier"),
            new Bug(6, "http-parser", "http-pipelining", "lab-servers/src/main/java/niolab/server/proto/HttpPing.java",
                    "out.put(response);\n            if (close) return CLOSE;", "out.put(response);\n            return close ? CLOSE : 0; // the first request only"),
            new Bug(7, "loops-spread", "loops-reuseport", "lab-servers/src/main/java/niolab/server/base/MultiLoopServer.java",
                    "ServerConfig each = config.mistakes().herd ? config : config.withReusePort();",
                    "ServerConfig each = config.mistakes().herd ? config.withReusePort() : config;"),
            new Bug(7, "vt-echo", "vt-serve", "lab-servers/src/main/java21/niolab/server/vt/VirtualThreadEchoServer.java",
                    "while (read(c) >= 0) {", "if (read(c) >= 0) { // one read, one write"),
            new Bug(7, "uring-echo", "uring-more", "lab-servers/src/main/java22/niolab/server/uring/UringServer.java",
                    "if (!CompletionQueue.hasMore(flags)) {", "if (res <= 0) { // a recv is over only at end of stream or on an error"),
            new Bug(2, "lt-standing-write", "lt-interest-ops", "lab-servers/src/main/java/niolab/server/lt/LevelTriggeredServer.java",
                    "key.interestOps(readingOps);", "key.interestOps(SelectionKey.OP_READ); // back to reading, whatever the connection began with"),
            new Bug(3, "et-unbounded-output", "et-read", "lab-servers/src/main/java/niolab/server/et/EdgeTriggeredEchoServer.java",
                    "if (mistakes.unboundedOutput) {", "if (false) { // the MISTAKE unbounded-output branch left out"),
            new Bug(7, "loops-herd-no-group", "loops-reuseport", "lab-servers/src/main/java/niolab/server/base/MultiLoopServer.java",
                    "ServerConfig each = config.mistakes().herd ? config : config.withReusePort();",
                    "ServerConfig each = config.withReusePort(); // in the group under the mistake too"),
            new Bug(7, "uring-cancel", "uring-more", "lab-servers/src/main/java22/niolab/server/uring/UringServer.java",
                    "c.recvCancelled = false;", "// c.recvCancelled stays set: the next episode's cancel is never sent"));

    private record Bug(int lab, String checkpoint, String region, String file, String line, String broken) {
    }

    /** The grader's output for each round of {@link #rounds()}, graded once. */
    private static List<String> bugged;

    /**
     * The bugs in rounds, each bug in the first round that holds no other bug of its region, so
     * that no bug hides another (two bugs of one region, or of one line, are planted in turn).
     */
    private static List<List<Bug>> rounds() {
        List<List<Bug>> rounds = new ArrayList<>();
        for (Bug b : BUGS) {
            List<Bug> round = rounds.stream().filter(r -> r.stream().noneMatch(o -> o.region().equals(b.region()))).findFirst().orElse(null);
            if (round == null) rounds.add(round = new ArrayList<>());
            round.add(b);
        }
        return rounds;
    }

    /** The grader's output for the reference with each round's bugs in: one grading run of the checkpoints they should fail. */
    private static synchronized List<String> bugged() throws Exception {
        if (bugged != null) return bugged;
        Path dest = handout();
        List<String> outputs = new ArrayList<>();
        for (List<Bug> round : rounds()) {
            Map<String, Map<String, String>> byFile = new TreeMap<>();
            for (Bug b : round) byFile.computeIfAbsent(b.file(), f -> new TreeMap<>()).put(b.line(), b.broken());
            for (Region r : regions) write(dest, r.file(), true, byFile.getOrDefault(r.file().toString(), Map.of()));
            String only = round.stream().map(Bug::checkpoint).collect(Collectors.joining(","));
            outputs.add(sh(dest, "make", "grade", "LAB=all", "ONLY=" + only, MVN).output);
        }
        for (Region r : regions) write(dest, r.file(), true, Map.of());
        return bugged = outputs;
    }

    /** Lab {@code lab}'s bugs are caught by their checkpoints, the hint under each names its region, and so does the last line. */
    private static void caught(int lab) throws Exception {
        List<List<Bug>> rounds = rounds();
        for (int k = 0; k < rounds.size(); k++) {
            List<Bug> ofLab = rounds.get(k).stream().filter(b -> b.lab() == lab).toList();
            if (!ofLab.isEmpty()) caught(lab, ofLab, bugged().get(k));
        }
    }

    private static void caught(int lab, List<Bug> bugs, String out) {
        Matcher table = Pattern.compile("(?s)\\nlab " + lab + ": .*?\\n  total [^\\n]*\\n[^\\n]*\\n").matcher(out);
        assertThat(table.find()).as("a table for lab %d in:%n%s", lab, out).isTrue();
        String t = table.group();
        Bug first = null;
        for (Bug b : bugs) {
            boolean notApplicable = Pattern.compile("\n  " + Pattern.quote(b.checkpoint()) + " +- +n/a ").matcher(t).find();
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

    /** A test per lab: its classic bugs are caught, and the hints name their regions. */
    @ParameterizedTest(name = "lab {0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "1 | serving on the accepting thread",
            "2 | reading on while output is pending; resuming with OP_READ whatever the connection began with",
            "3 | one accept and one read per edge; the unbounded-output branch left out",
            "4 | restarting without back-off",
            "5 | a schedule that drifts",
            "6 | answering only the first pipelined request",
            "7 | an inverted SO_REUSEPORT condition, SO_REUSEPORT on under herd, a one-shot virtual thread, a recv over only at its end, a cancel left marked"})
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void aClassicBugInEachRegionIsCaughtAndItsHintNamesTheRegion(int lab, String bugs) throws Exception {
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
        Path log = dest.resolve(Grader.LOG);
        return Files.isRegularFile(log) ? Files.readString(log) : "(no " + Grader.LOG + ")";
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
        return Stubs.read(LAB.resolve(Handout.STUBS));
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
