package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import niolab.course.Course.Checkpoint;
import niolab.course.Scoring.Outcome;
import niolab.course.Scoring.Score;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grader scores from Surefire's reports as a student would need it to: a pass only when the
 * test ran and every case passed, n/a (out of the total) for what the tree or the JDK cannot
 * run, zero for a test that never ran; a hint under each failure; exit 0 only at full marks.
 */
class GraderTest {
    private static final String TABLE = String.join("\n",
            "# a comment, then a blank line",
            "",
            "3\tburst\t3\tsrv\tniolab.server.BurstTest#aBurstIsServed\ta burst is served\taccept until EAGAIN",
            "3\twhole\t2\tsrv\tniolab.server.WholeTest\tthe whole class passes\tread the report",
            "3\tparam\t1\tsrv\tniolab.server.BurstTest#eachArch\tevery architecture\tboth archs",
            "3\tlater\t2\tsrv\tniolab.server.NotYetTest\ta part still to come\t-",
            "3\tnewer\t2\tsrv\tniolab.server.NewJdkTest\tneeds a newer JDK\t-",
            "4\tother\t5\tsrv\tniolab.server.OtherTest\tanother lab\t-",
            "");

    @TempDir
    Path root;

    @BeforeEach
    void aTreeWithTestsAndASheet() throws IOException {
        Files.createDirectories(root.resolve("labs"));
        manifests();
        Files.writeString(root.resolve("labs/03-et.md"), "# Lab 3: ET through JNA\n");
        for (String t : List.of("BurstTest", "WholeTest", "OtherTest")) source("java", t);
        source("java99", "NewJdkTest");
    }

    private String table = TABLE, hints = "", needs = "";
    /** Regions: lab, id, file, stub; the hints' and needs' other regions are declared in lab 3, in files of their own. */
    private String regions = "2\tlt-ops\tsrv/src/main/java/niolab/server/Lt.java\tlabs/stubs/lt-ops.java.txt\n"
            + "3\tet-read\tsrv/src/main/java/niolab/server/Et.java\tlabs/stubs/et-read.java.txt\n";

    /** Writes the tree's manifests, labs/03-et/lab.tsv and labs/04-mp/lab.tsv (and 02-lt for its region), from the rows above. */
    private void manifests() throws IOException {
        java.util.Map<Integer, StringBuilder> labs = new java.util.TreeMap<>();
        java.util.Map<String, Integer> labOf = new java.util.HashMap<>();
        java.util.Set<String> declared = new java.util.HashSet<>();
        for (int lab : List.of(2, 3, 4)) labs.put(lab, new StringBuilder());
        for (String row : regions.split("\n")) {
            String[] f = row.split("\t", 2);
            labs.get(Integer.parseInt(f[0])).append("[regions]\n").append(f[1]).append('\n');
            declared.add(f[1].split("\t")[0]);
        }
        for (String row : table.split("\n")) {
            if (row.isBlank() || row.startsWith("#")) continue;
            String[] f = row.split("\t", 2);
            labs.get(Integer.parseInt(f[0])).append("[checkpoints]\n").append(f[1]).append('\n');
            labOf.put(f[1].split("\t")[0], Integer.parseInt(f[0]));
        }
        for (String[] section : new String[][] {{"hints", hints}, {"needs", needs}}) {
            for (String row : section[1].split("\n")) {
                if (row.isBlank() || row.startsWith("#")) continue;
                String[] f = row.split("\t");
                labs.get(labOf.get(f[0])).append("[").append(section[0]).append("]\n").append(row).append('\n');
                for (String region : (section[0].equals("hints") ? f[1] : f[1]).split("\\s*,\\s*")) {
                    if (!region.equals("-") && declared.add(region)) {
                        labs.get(3).append("[regions]\n").append(region).append("\tsrv/src/main/java/").append(region).append(".java\tlabs/stubs/")
                                .append(region).append(".java.txt\n");
                    }
                }
            }
        }
        for (var e : labs.entrySet()) {
            Path dir = root.resolve("labs/0" + e.getKey() + "-" + new String[] {"", "", "lt", "et", "mp"}[e.getKey()]);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("lab.tsv"), e.getValue().toString());
        }
    }

    private void source(String dir, String cls) throws IOException {
        Path p = root.resolve("srv/src/test/" + dir + "/niolab/server/" + cls + ".java");
        Files.createDirectories(p.getParent());
        Files.writeString(p, "class " + cls + " {}");
    }

    /** A Surefire report: each case is {name, outcome} with outcome pass, failure, error or skipped. */
    private void report(String cls, String[]... cases) throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"niolab.server." + cls + "\">\n");
        for (String[] c : cases) {
            xml.append("  <testcase name=\"").append(c[0]).append("\" classname=\"niolab.server.").append(cls).append('"');
            String message = c.length > 2 ? c[2] : "boom";
            xml.append(c[1].equals("pass") ? "/>\n" : ">\n    <" + c[1] + " message=\"" + message + "\"/>\n  </testcase>\n");
        }
        Path p = root.resolve("srv/target/surefire-reports/TEST-niolab.server." + cls + ".xml");
        Files.createDirectories(p.getParent());
        Files.writeString(p, xml.append("</testsuite>\n"));
    }

    private List<Score> score(int jdk) throws IOException {
        return new Scoring(root, jdk).score(Grader.select(Course.read(root).checkpoints(), 3, Set.of()));
    }

    private static Outcome outcome(List<Score> scores, String id) {
        return scores.stream().filter(s -> s.checkpoint().id().equals(id)).findFirst().orElseThrow().outcome();
    }

    @Test
    void theTableIsReadRowByRowSkippingCommentsAndBlankLines() throws IOException {
        List<Checkpoint> all = Course.read(root).checkpoints();
        assertThat(all).extracting(Checkpoint::id).containsExactly("burst", "whole", "param", "later", "newer", "other");
        Checkpoint burst = all.get(0);
        assertThat(burst.testClass()).isEqualTo("niolab.server.BurstTest");
        assertThat(burst.method()).isEqualTo("aBurstIsServed");
        assertThat(MavenRun.selector(burst)).isEqualTo("BurstTest#aBurstIsServed");
        assertThat(all.get(1).method()).isNull();
        assertThat(MavenRun.selector(all.get(1))).isEqualTo("WholeTest");
    }

    @Test
    void aRowWithoutItsSixFieldsIsAnErrorNamingItsLine() throws IOException {
        Files.writeString(root.resolve("labs/03-et/lab.tsv"), "# header\n[checkpoints]\nburst\t3\tsrv\n");
        assertThatThrownBy(() -> Course.read(root)).hasMessageContaining("lab.tsv:3: [checkpoints] rows have 6 tab-separated fields, this one 3");
    }

    @Test
    void passFailAndNotRunComeFromTheReports() throws IOException {
        report("BurstTest", new String[] {"aBurstIsServed", "pass"}, new String[] {"eachArch(String)[1]", "pass"},
                new String[] {"eachArch(String)[2]", "failure"});
        List<Score> scores = score(17);
        assertThat(outcome(scores, "burst")).isEqualTo(Outcome.PASS);
        assertThat(outcome(scores, "param")).as("one parameterized case failed").isEqualTo(Outcome.FAIL);
        assertThat(outcome(scores, "whole")).as("no report: the build failed or the test never ran").isEqualTo(Outcome.NOT_RUN);
    }

    @Test
    void aWholeClassPassesOnlyWhenEveryCasePasses() throws IOException {
        report("WholeTest", new String[] {"a", "pass"}, new String[] {"b", "error"});
        assertThat(outcome(score(17), "whole")).isEqualTo(Outcome.FAIL);
        report("WholeTest", new String[] {"a", "pass"}, new String[] {"b", "pass"});
        assertThat(outcome(score(17), "whole")).isEqualTo(Outcome.PASS);
    }

    @Test
    void aMethodAbsentFromItsReportDidNotRun() throws IOException {
        report("BurstTest", new String[] {"somethingElse", "pass"});
        assertThat(outcome(score(17), "burst")).isEqualTo(Outcome.NOT_RUN);
    }

    @Test
    void missingTestsNewerJdksAndSkippedTestsAreNotApplicable() throws IOException {
        report("BurstTest", new String[] {"aBurstIsServed", "skipped"});
        List<Score> scores = score(17);
        assertThat(outcome(scores, "burst")).isEqualTo(Outcome.NOT_APPLICABLE);
        assertThat(outcome(scores, "later")).isEqualTo(Outcome.NOT_APPLICABLE);
        Scoring g = new Scoring(root, 17);
        Checkpoint later = Course.read(root).checkpoints().get(3);
        assertThat(g.unavailable(later)).isEqualTo("niolab.server.NotYetTest is not in this tree");
    }

    @Test
    void aTestUnderSrcTestJava21OrJava22NeedsThatJdk() throws IOException {
        Files.move(root.resolve("srv/src/test/java99"), root.resolve("srv/src/test/java21"));
        Checkpoint newer = Course.read(root).checkpoints().get(4);
        assertThat(new Scoring(root, 17).unavailable(newer)).isEqualTo("needs JDK 21 or newer (this one is 17)");
        assertThat(new Scoring(root, 21).unavailable(newer)).isNull();
    }

    @Test
    void theTableShowsEachScoreAHintUnderEachFailureAndTheTotalWithoutTheNotApplicable() throws IOException {
        report("BurstTest", new String[] {"aBurstIsServed", "failure"}, new String[] {"eachArch(String)[1]", "pass"});
        report("WholeTest", new String[] {"a", "pass"});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean full = GradeTable.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), 3, "Lab 3: ET through JNA", score(17), List.of());
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(full).isFalse();
        assertThat(out).contains("lab 3: ET through JNA")
                .containsPattern("burst +0/3 +FAIL +a burst is served\\n +hint: accept until EAGAIN\\n +aBurstIsServed failed: boom\\n"
                        + " +run it alone: make grade LAB=3 ONLY=burst \\(the report: srv/target/surefire-reports/TEST-niolab.server.BurstTest.xml\\)\\n")
                .containsPattern("whole +2/2 +pass")
                .containsPattern("param +1/1 +pass")
                .containsPattern("later +- +n/a +a part still to come \\(niolab.server.NotYetTest is not in this tree\\)")
                .containsPattern("total +3/6 ");
        assertThat(out).doesNotContain("read the report").doesNotContain("both archs"); // hints of passes stay hidden
    }

    @Test
    void aHintIsKeyedToWhatFailedNamesItsRegionAndTheTableEndsWithTheFirstFailureToFix() throws IOException {
        hints = String.join("\n",
                "# id, region, when, hint",
                "burst\tacc\tcorrect server\tthe correct server stalled: your loop stops early (fix x first)",
                "burst\tacc\t*\t-",
                "param\trd\t*\tboth archs, keyed",
                "");
        manifests();
        report("BurstTest", new String[] {"aBurstIsServed", "failure", "[bytes echoed by the correct server] &#10;expected: 64"},
                new String[] {"eachArch(String)[1]", "failure", "[the broken one] expected: 16"});
        report("WholeTest", new String[] {"a", "pass"});
        String out = printed(score(17));
        assertThat(out).containsPattern("burst +0/3 +FAIL .*\\n +hint \\[acc\\]: the correct server stalled: your loop stops early \\(fix x first\\)\\n"
                        + " +aBurstIsServed failed: \\[bytes echoed by the correct server\\]\\n")
                .containsPattern("param +0/1 +FAIL .*\\n +hint \\[rd\\]: both archs, keyed\\n")
                .endsWith("  several failures may share one cause: start with burst (region acc)\n");

        report("BurstTest", new String[] {"aBurstIsServed", "failure", "[the broken one] expected: 16"},
                new String[] {"eachArch(String)[1]", "pass"});
        out = printed(score(17));
        assertThat(out).as("no pattern matched: the table's hint, with the region").contains("hint [acc]: accept until EAGAIN\n")
                .endsWith("  start with burst (region acc)\n");
    }

    @Test
    void aFailureShowsWhatWasExpectedAndWhatCameInsteadEachPartCut() {
        assertThat(Failures.summary("[bytes echoed] \nExpecting actual:\n  5\nto be greater than:\n  7\n"))
                .isEqualTo("[bytes echoed]\n    Expecting actual: 5\n    to be greater than: 7");
        assertThat(Failures.summary("expected: <1000000000000000> but was: <" + "9".repeat(500) + ">"))
                .startsWith("expected: <1000000000000000>\n    but was: <999").endsWith("...").hasSizeLessThan(260);
        assertThat(Failures.summary("[orders] \nExpecting actual:\n  \"[0, 1]\"\nnot to be equal to:\n  \"[0, 1]\"\n"))
                .isEqualTo("[orders]\n    Expecting actual: \"[0, 1]\"\n    not to be equal to: \"[0, 1]\"");
        assertThat(Failures.summary("")).isEqualTo("(no message)");
    }

    @Test
    void aStallOrARefusedConnectSaysWhatWasExpectedAndTheServersErrorLine() throws IOException {
        writeReport("srv/target/surefire-reports/TEST-niolab.server.BurstTest.xml", String.join("\n",
                "<testsuite name=\"niolab.server.BurstTest\">",
                "  <testcase name=\"aBurstIsServed\" classname=\"niolab.server.BurstTest\">",
                "    <error message=\"Connection refused\" type=\"java.net.ConnectException\">java.net.ConnectException: Connection refused</error>",
                "  </testcase>",
                "  <testcase name=\"someOtherCase\" classname=\"niolab.server.BurstTest\">",
                "    <failure message=\"[a twin's output&#10;error: not this one]\"/>",
                "  </testcase>",
                "  <testcase name=\"eachArch(String)[1]\" classname=\"niolab.server.BurstTest\">",
                "    <error message=\"java.io.IOException: Broken pipe\" type=\"java.util.concurrent.ExecutionException\"/>",
                "  </testcase>",
                "  <testcase name=\"initializationError\" classname=\"niolab.server.BurstTest\">",
                "    <failure message=\"[listening on 127.0.0.1:1 (lt, echo)&#10;error: event loop failed: lab 2: awaitWritable&#10;counters: accepts=1] expected: 0 but was: 1\"/>",
                "  </testcase>",
                "</testsuite>", ""));
        writeReport("srv/target/surefire-reports/TEST-niolab.server.WholeTest.xml", String.join("\n",
                "<testsuite name=\"niolab.server.WholeTest\">",
                "  <testcase name=\"a\" classname=\"niolab.server.WholeTest\">",
                "    <error message=\"Read timed out\" type=\"java.net.SocketTimeoutException\">java.net.SocketTimeoutException: Read timed out</error>",
                "  </testcase>",
                "</testsuite>", ""));
        List<Score> scores = score(17);
        String refused = scores.stream().filter(s -> s.checkpoint().id().equals("burst")).findFirst().orElseThrow().why();
        assertThat(refused).contains("aBurstIsServed failed: Connection refused\n    expected: a server on the port; came: a refused connect")
                .contains("\nthe server said: error: event loop failed: lab 2: awaitWritable\n");
        assertThat(scores.stream().filter(s -> s.checkpoint().id().equals("param")).findFirst().orElseThrow().why())
                .as("a broken pipe: the server was gone").contains("Broken pipe\nthe server said: error: event loop failed: lab 2: awaitWritable\n");
        String stalled = scores.stream().filter(s -> s.checkpoint().id().equals("whole")).findFirst().orElseThrow().why();
        assertThat(stalled).contains("a failed: Read timed out\n    expected: an answer; came: nothing more before the test's socket timeout")
                .doesNotContain("the server said");
        assertThat(Failures.serverSaid("[w1] listening\n[w1] error: bind: in use\nerror: gave up")).isEqualTo("error: bind: in use");
    }

    @Test
    void aCheckpointOfNoPointsIsGivenShownAndScoredZero() throws IOException {
        table = TABLE.replace("3\twhole\t2\t", "3\twhole\t0\t");
        manifests();
        report("BurstTest", new String[] {"aBurstIsServed", "pass"}, new String[] {"eachArch(String)[1]", "pass"});
        report("WholeTest", new String[] {"a", "pass"});
        String out = printed(score(17));
        assertThat(out).containsPattern("whole +0/0 +given +the whole class passes").containsPattern("total +4/4 +full");
    }

    @Test
    void aGivenCheckpointThatFailsSaysTheStudentsCodeBrokeItAndKeepsTheLabFromFullMarks() throws IOException {
        table = TABLE.replace("3\twhole\t2\t", "3\twhole\t0\t");
        hints = "whole\tacc\t*\t-\n";
        manifests();
        report("BurstTest", new String[] {"aBurstIsServed", "pass"}, new String[] {"eachArch(String)[1]", "pass"});
        report("WholeTest", new String[] {"a", "failure", "[echoed] expected: 5"});
        String out = printed(score(17));
        assertThat(out).doesNotContain("0/0").containsPattern("whole +given +FAIL +the whole class passes\\n +"
                        + Pattern.quote(GradeTable.GIVEN_BROKEN) + "\\n +hint \\[acc\\]: read the report\\n +a failed: \\[echoed\\]\\n")
                .containsPattern("total +4/4 +not full: a given part is broken \\(above\\)")
                .endsWith("  start with whole (region acc)\n");
        assertThat(run("--lab", "3", "--score-only", "--root", root.toString())).as("below full marks").isEqualTo(1);
    }

    @Test
    void aFailureThatRunsAnEarlierLabsStubNamesThatLabInsteadOfItsOwnRegion() throws IOException {
        hints = "burst\tacc\t*\t-\nparam\tacc\t*\t-\n";
        needs = "# id, regions\nburst\tlt-ops, et-read\nparam\tet-read\n";
        manifests();
        Files.createDirectories(root.resolve(Stubs.DIR));
        Files.writeString(root.resolve(Stubs.DIR + "/lt-ops.java.txt"), "---- part 1 ----\n// TODO lab 2: switch\nthrow new X();\n---- part 2 ----\nback();\n");
        Files.writeString(root.resolve(Stubs.DIR + "/et-read.java.txt"), "// TODO lab 3: read until drained\nlong n = read(c);\n");
        Path main = root.resolve("srv/src/main/java/niolab/server/Lt.java");
        Files.createDirectories(main.getParent());
        String stubbed = "class Lt {\n  void a() {\n    // TODO lab 2: switch\n\n    throw new X();\n  }\n  void b() {\n      back();\n  }\n}\n";
        Files.writeString(main, stubbed);
        Files.writeString(root.resolve("srv/src/main/java/niolab/server/Et.java"), "class Et {\n  // TODO lab 3: read until drained\n  long n = read(c);\n}\n");
        report("BurstTest", new String[] {"aBurstIsServed", "failure"}, new String[] {"eachArch(String)[1]", "failure"});
        report("WholeTest", new String[] {"a", "failure"});

        String out = printed(score(17));
        assertThat(out).contains("hint: lab 2's lt-ops is still a stub; lab 3's et-read is still a stub: burst needs them (make grade LAB=2,3)\n")
                .contains("hint: lab 3's et-read is still a stub: param needs it (make grade LAB=3)\n")
                .doesNotContain("[acc]")
                .contains("  start with whole\n  then the earlier labs: lab 2's lt-ops: still a stub; lab 3's et-read: still a stub\n");

        Files.writeString(main, stubbed.replace("back();", "key.interestOps(OP_READ);")); // part 2 written: lt-ops is done
        Files.writeString(root.resolve("srv/src/main/java/niolab/server/Et.java"), "class Et {\n  // TODO lab 3: read until drained\n  long n;\n}\n");
        out = printed(score(17));
        assertThat(out).contains("hint [acc]: accept until EAGAIN").doesNotContain("still a stub")
                .endsWith("  several failures may share one cause: start with burst (region acc)\n");
    }

    @Test
    void aGivenCheckpointThatAnEarlierLabsStubBreaksNamesThatLabAndDoesNotBlameTheStudent() throws IOException {
        table = TABLE.replace("3\tparam\t1\t", "3\tparam\t0\t");
        hints = "param\tacc\t*\t-\n";
        needs = "param\tet-read\n";
        manifests();
        Files.createDirectories(root.resolve(Stubs.DIR));
        Files.writeString(root.resolve(Stubs.DIR + "/et-read.java.txt"), "// TODO lab 3: read until drained\nlong n = read(c);\n");
        Files.createDirectories(root.resolve("srv/src/main/java/niolab/server"));
        Files.writeString(root.resolve("srv/src/main/java/niolab/server/Et.java"), "class Et {\n  // TODO lab 3: read until drained\n  long n = read(c);\n}\n");
        report("BurstTest", new String[] {"aBurstIsServed", "pass"}, new String[] {"eachArch(String)[1]", "failure"});
        report("WholeTest", new String[] {"a", "pass"});
        String out = printed(score(17));
        assertThat(out).containsPattern("param +given +FAIL +every architecture\\n +hint: lab 3's et-read is still a stub: param needs it \\(make grade LAB=3\\)\\n")
                .doesNotContain(GradeTable.GIVEN_BROKEN).doesNotContain("[acc]");
    }

    @Test
    void aBuildFailureShowsTheCompilersFirstErrorAndNoHints() throws IOException {
        Path log = root.resolve(MavenRun.LOG);
        Files.createDirectories(log.getParent());
        Files.writeString(log, String.join("\n", "grading: mvn ...", "[ERROR] COMPILATION ERROR : ",
                "[ERROR] " + root.toAbsolutePath().normalize() + "/srv/src/main/java/niolab/server/Et.java:[12,9] cannot find symbol",
                "  symbol:   variable n", "  location: class niolab.server.Et",
                "[ERROR] " + root.toAbsolutePath().normalize() + "/srv/src/main/java/niolab/server/Et.java:[14,1] class, interface expected", ""));
        assertThat(MavenRun.firstCompileError(root, log)).isEqualTo(
                "srv/src/main/java/niolab/server/Et.java:12: cannot find symbol\n  symbol:   variable n\n  location: class niolab.server.Et");
        Files.writeString(log, "[INFO] all fine\n");
        assertThat(MavenRun.firstCompileError(root, log)).isNull();

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GradeTable.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), 3, "Lab 3", score(17),
                List.of(new Course.Hint("burst", "acc", null, "-")), java.util.Map.of(), true);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("not run: the build failed (above)").doesNotContain("hint").endsWith("  start with the compiler's error above\n");
    }

    @Test
    void theSummarySumsEveryModulesReportsAndGroupsTheSkipsByTheCapabilityTheyName() throws IOException {
        writeReport("a/target/surefire-reports/TEST-x.A.xml", "<testsuite name=\"x.A\" tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"2\">"
                + "<testcase name=\"u1\"><skipped message=\"[io_uring] the kernel refuses it\"/></testcase>"
                + "<testcase name=\"u2\"><skipped message=\"Assumption failed: [io_uring] not on this kernel\"/></testcase>"
                + "<testcase name=\"f\"><failure message=\"boom\"/></testcase><testcase name=\"p\"/></testsuite>");
        writeReport("g/b/target/surefire-reports/TEST-x.B.xml", "<testsuite name=\"x.B\" tests=\"3\" failures=\"0\" errors=\"1\" skipped=\"1\">"
                + "<testcase name=\"r\"><skipped type=\"org.opentest4j.TestAbortedException\"><![CDATA[org.opentest4j.TestAbortedException: Assumption failed: needs root\n\tat x]]></skipped></testcase>"
                + "<testcase name=\"e\"><error type=\"java.io.IOException\"/></testcase><testcase name=\"p\"/></testsuite>");
        writeReport("a/src/test/resources/TEST-not-a-report.xml", "<testsuite tests=\"99\"/>");
        assertThat(SurefireReports.summary(root)).isEqualTo("\ntests: 2 passed, 2 failed, 3 skipped (2 for io_uring: the kernel refuses it; 1 for needs root)\n");
        assertThat(Tools.run(new String[] {"test-summary", "--root", root.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("tests: 2 passed, 2 failed, 3 skipped");
    }

    private void writeReport(String path, String xml) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + xml);
    }

    /** The course's own tables: every hint that names a test says how to run it alone, and every dependency names a checkpoint and a stub. */
    @Test
    void theLabsHintsGiveTheirCommandsAndItsDependenciesNameRealCheckpointsAndStubs() throws IOException {
        Path lab = Path.of("..").toAbsolutePath().normalize();
        Course course = Course.read(lab);
        List<String> hints = new java.util.ArrayList<>();
        for (Checkpoint c : course.checkpoints()) hints.add(c.id() + ": " + c.hint());
        for (Course.Hint h : course.hints()) hints.add(h.id() + ": " + h.text());
        for (String h : hints) {
            if (h.matches(".*\\b[A-Z]\\w*Test\\b.*")) assertThat(h).as("a hint naming a test gives its command").containsPattern("make grade LAB=\\d ONLY=|mvn ");
        }
        assertThat(course.needs()).isNotEmpty();
        for (Course.Region r : course.regions().values()) {
            assertThat(lab.resolve(r.stub())).as("region %s's stub", r.id()).exists();
            assertThat(lab.resolve(r.file())).as("region %s's file", r.id()).exists();
        }
    }

    private String printed(List<Score> scores) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GradeTable.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), 3, "Lab 3", scores, Course.read(root).hints(),
                new Scoring(root, 17).blocked(Course.read(root), scores), false);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void scoreOnlyExitsZeroAtFullMarksAndOneBelow() throws IOException {
        report("BurstTest", new String[] {"aBurstIsServed", "pass"}, new String[] {"eachArch(String)[1]", "pass"});
        report("WholeTest", new String[] {"a", "pass"});
        assertThat(run("--lab", "3", "--score-only", "--root", root.toString())).isZero();
        report("WholeTest", new String[] {"a", "failure"});
        assertThat(run("--lab", "3", "--score-only", "--root", root.toString())).isEqualTo(1);
        assertThat(run("--lab", "3", "--only", "burst,param", "--score-only", "--root", root.toString())).isZero();
    }

    @Test
    void severalLabsAreGradedTogetherEachInItsOwnTableAndExitZeroOnlyWhenEveryOneIsFull() throws IOException {
        Files.writeString(root.resolve("labs/04-mp.md"), "# Lab 4: MP\n");
        report("BurstTest", new String[] {"aBurstIsServed", "pass"}, new String[] {"eachArch(String)[1]", "pass"});
        report("WholeTest", new String[] {"a", "pass"});
        report("OtherTest", new String[] {"x", "failure"});
        assertThat(run("--lab", "3,4", "--score-only", "--root", root.toString())).isEqualTo(1);
        String both = out.toString(StandardCharsets.UTF_8);
        assertThat(both).containsPattern("lab 3: ET through JNA\\n(.*\\n)*  total +6/6 +full")
                .containsPattern("lab 4: MP\\n +other +0/5 +FAIL")
                .contains("1 of 2 labs at full marks (below: lab 4)");
        out.reset();
        assertThat(run("--lab", "all", "--only", "burst,whole", "--score-only", "--root", root.toString()))
                .as("--only leaves lab 4 out: only lab 3 is graded").isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("lab 3:").doesNotContain("lab 4:").doesNotContain("labs at full marks");
        report("OtherTest", new String[] {"x", "pass"});
        out.reset();
        assertThat(run("--lab", "all", "--score-only", "--root", root.toString())).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("2 of 2 labs at full marks\n");
        assertThat(Grader.labs("all")).isEmpty();
        assertThat(Grader.labs("1, 2,7")).containsExactly(1, 2, 7);
    }

    @Test
    void badUsageIsOneLineAndExitTwo() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: which lab? --lab N (make grade LAB=N)");
        assertThat(run("--lab", "three")).isEqualTo(2);
        assertThat(run("--lab", "3", "--frobnicate")).isEqualTo(2);
        assertThat(run("--lab", "3,x")).isEqualTo(2);
        err.reset();
        assertThat(run("--lab", "9", "--score-only", "--root", root.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: no checkpoint for lab 9");
        err.reset();
        assertThat(run("--lab", "3", "--only", "burst,brust", "--score-only", "--root", root.toString()))
                .as("a misspelt ONLY= id is said, not left out").isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("error: no checkpoint brust in lab 3: ONLY= takes burst, whole, param, later, newer\n");
    }

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Grader.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}
