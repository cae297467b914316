package niolab.course;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import niolab.course.Course.Checkpoint;
import niolab.course.Course.Hint;
import niolab.course.Scoring.Blocked;
import niolab.course.Scoring.Score;

/**
 * The autograder: runs the checkpoints of one lab, as its manifest lists them ({@link Course}),
 * in one Maven run ({@link MavenRun}), scores each from Surefire's reports ({@link Scoring}) and
 * prints a table per lab ({@link GradeTable}).
 *
 * <pre>
 *   make grade LAB=3                   # java -jar target/course-tools.jar grade --lab 3
 *   grading 7 checkpoints: Maven builds first, then a line per checkpoint as its test class ends
 *     [1/7] et-burst                   pass (21 s)
 *     ...
 *   lab 3: ET through JNA: drain to EAGAIN
 *     et-burst          3/3  pass   a burst of 1000 connections is accepted and served
 *     et-large          0/3  FAIL   payloads of 1 B to 1 MiB come back exactly
 *                                   hint [et-read]: one read per edge leaves bytes no edge announces again: read until drained
 *                                   randomPayloads...Exactly failed: [bytes echoed]
 *                                       expected: 1048576
 *                                       but was: 65536
 *                                   run it alone: make grade LAB=3 ONLY=et-large (the report: lab-servers/target/...xml)
 *     ...
 *     total            11/16
 *     several failures may share one cause: start with et-large (region et-read)
 *
 *   Maven's and the servers' output: target/grade.log (VERBOSE=1 shows it here)
 * </pre>
 *
 * The hint under a failure comes from the manifest's [hints] when a row of that checkpoint
 * matches the first line of the failed assertion (its description says which part failed, and
 * which of a correct and a broken twin), else from its [checkpoints] row; each lab's rows are in
 * dependency order, so its first failure is the one to fix first. A checkpoint that runs an
 * earlier lab's server ([needs]) while that lab's region is still its stub says so instead
 * first ({@code lab 3's et-accept and et-read are still stubs: loops-et needs them}), and is not the one to
 * start with. A build that fails prints the compiler's first error and no hint. A checkpoint of
 * 0 points is given: the stubs pass it too, so it shows, and scores nothing; when it fails, the
 * student's code broke what the handout gave, the table says so, and the lab is not at full
 * marks. Each lab's table is also kept in {@code runs/labN/grade.txt} for {@code make handin},
 * with the hash of the sources it graded ({@link Sources}).
 *
 * {@code LAB=1,2,7} or {@code LAB=all} grades several labs in one Maven run: a table per lab,
 * then how many are at full marks.
 *
 * <p>A checkpoint is one test class ({@code niolab.server.LtEchoContractTest}) or one method of it
 * ({@code ...#halfClosedClient...}): it passes when the test ran and every case of it passed. It
 * counts as n/a, out of the total, when its test is not in the tree (a part of the lab still to
 * come), needs a newer JDK than this one (it sits in {@code src/test/java21}), or was skipped
 * (an assumption, such as root for a network namespace, did not hold). The exit code is 0 at
 * full marks (every lab graded), 1 below, 2 for bad usage; a test that did not run (the build failed) scores 0.
 *
 * <p>JDK only, as every class of this package: make builds them into a small jar
 * (target/course-tools.jar, {@link Tools}) with javac alone, so that a student's code that does
 * not compile still gets its grade table. Maven is run as {@code $MVN} ({@code mvn -q -B} if unset).
 */
public final class Grader {
    private static final String USAGE = "usage: grade --lab N|N,N...|all [--only ID,ID...] [--score-only] [--root DIR]";

    private Grader() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String labArg = null;
        Set<String> only = new LinkedHashSet<>();
        boolean runTests = true;
        Path root = Paths.get("");
        List<Integer> labs;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--lab" -> labArg = args[++i];
                    case "--only" -> only.addAll(List.of(args[++i].split(",")));
                    case "--score-only" -> runTests = false;
                    case "--root" -> root = Paths.get(args[++i]);
                    default -> throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
                }
            }
            if (labArg == null) throw new IllegalArgumentException("which lab? --lab N (make grade LAB=N)");
            labs = labs(labArg);
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            err.println("error: --lab, --only and --root each take a value (--lab a number, numbers with commas, or all)\n" + USAGE);
            return 2;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage() + "\n" + USAGE);
            return 2;
        }
        try {
            Scoring scoring = new Scoring(root, Runtime.version().feature());
            Course course = Course.read(root);
            List<Checkpoint> table = course.checkpoints();
            if (labs.isEmpty()) labs = allLabs(table);
            List<Checkpoint> chosen = new ArrayList<>();
            for (int lab : labs) chosen.addAll(select(table, lab, only));
            String unknown = unknownIds(table, labs, only);
            if (unknown != null) {
                err.println("error: " + unknown);
                return 2;
            }
            if (chosen.isEmpty()) {
                err.println("error: no checkpoint for lab " + labArg + (only.isEmpty() ? "" : " among " + only) + " in the labs' manifests (labs/NN-name/lab.tsv)");
                return 2;
            }
            boolean verbose = "1".equals(System.getenv("VERBOSE"));
            if (runTests) new MavenRun(root, scoring).run(chosen, verbose, out, err);
            // One Maven run for every lab asked; then a table per lab, and whether each is at full marks.
            List<Score> scores = scoring.score(chosen);
            List<Hint> hints = course.hints();
            String buildError = runTests && !verbose ? MavenRun.firstCompileError(root, root.resolve(MavenRun.LOG)) : null;
            if (buildError != null) {
                out.println("\nthe build failed, so no test ran; the compiler's first error:\n  " + buildError.replace("\n", "\n  ")
                        + "\n(the whole of Maven's output: " + MavenRun.LOG + ")");
                hints = List.of();
            }
            Map<String, Blocked> blocked = scoring.blocked(course, scores);
            StringJoiner notFull = new StringJoiner(", ", " (below: lab ", ")").setEmptyValue("");
            int graded = 0, full = 0;
            for (int lab : labs) {
                List<Score> ofLab = new ArrayList<>();
                for (Score s : scores) {
                    if (s.checkpoint().lab() == lab) ofLab.add(s);
                }
                if (ofLab.isEmpty()) continue; // --only named none of this lab's
                graded++;
                ByteArrayOutputStream printed = new ByteArrayOutputStream();
                if (GradeTable.print(new PrintStream(printed, true, StandardCharsets.UTF_8), lab, title(root, course.lab(lab)), ofLab, hints, blocked,
                        buildError != null)) full++;
                else notFull.add(Integer.toString(lab));
                out.print(printed.toString(StandardCharsets.UTF_8));
                if (runTests) GradeTable.keep(root, course, lab, only, printed.toString(StandardCharsets.UTF_8));
            }
            if (graded > 1) {
                out.printf(Locale.ROOT, "%n%d of %d labs at full marks%s%n", full, graded, notFull);
            }
            if (runTests && !verbose) out.println("\nMaven's and the servers' output: " + MavenRun.LOG + " (VERBOSE=1 shows it here)");
            return full == graded ? 0 : 1;
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    /** {@code 3}, {@code 1,2,7} or {@code all} (an empty list: every lab of the table). */
    static List<Integer> labs(String arg) {
        List<Integer> labs = new ArrayList<>();
        if (arg.equals("all")) return labs;
        for (String n : arg.split(",")) labs.add(Integer.parseInt(n.strip()));
        return labs;
    }

    private static List<Integer> allLabs(List<Checkpoint> table) {
        Set<Integer> labs = new LinkedHashSet<>();
        for (Checkpoint c : table) labs.add(c.lab());
        return new ArrayList<>(labs);
    }

    /** Which ids of {@code only} name no checkpoint of {@code labs}, with the ids they could be; null when all do. */
    static String unknownIds(List<Checkpoint> table, List<Integer> labs, Set<String> only) {
        List<String> ids = new ArrayList<>();
        for (Checkpoint c : table) if (labs.contains(c.lab())) ids.add(c.id());
        List<String> unknown = only.stream().filter(id -> !ids.contains(id)).sorted().toList();
        if (unknown.isEmpty() || ids.isEmpty()) return null;
        return "no checkpoint " + String.join(", ", unknown) + " in lab " + labs.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
                + ": ONLY= takes " + String.join(", ", ids);
    }

    static List<Checkpoint> select(List<Checkpoint> all, int lab, Set<String> only) {
        List<Checkpoint> chosen = new ArrayList<>();
        for (Checkpoint c : all) {
            if (c.lab() == lab && (only.isEmpty() || only.contains(c.id()))) chosen.add(c);
        }
        return chosen;
    }

    /** The lab's title, from the first line of its sheet ({@code # Lab 3: ...}). */
    static String title(Path root, Course.Lab lab) throws IOException {
        Path sheet = root.resolve(lab.sheet());
        if (!Files.isRegularFile(sheet)) return "Lab " + lab.number();
        return Files.readAllLines(sheet, StandardCharsets.UTF_8).get(0).replaceFirst("^#\\s*", "");
    }
}
