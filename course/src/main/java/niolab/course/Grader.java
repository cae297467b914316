package niolab.course;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The autograder: runs the checkpoints of one lab, as {@code labs/checkpoints.tsv} lists them,
 * and scores each from Surefire's reports.
 *
 * <pre>
 *   make grade LAB=3                   # java .../Grader.java --lab 3
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
 * The hint under a failure comes from {@code labs/hints.tsv} when a row of that checkpoint
 * matches the first line of the failed assertion (its description says which part failed, and
 * which of a correct and a broken twin), else from the table; each lab's rows are in dependency
 * order, so its first failure is the one to fix first. A checkpoint that runs an earlier lab's
 * server ({@code labs/needs.tsv}) while that lab's region is still its stub says so instead
 * ({@code loops-et needs lab 3's et-accept and et-read: still stubs}), and is not the one to
 * start with. A build that fails prints the compiler's first error and no hint. A checkpoint of
 * 0 points is given: the stubs pass it too, so it shows, and scores nothing; when it fails, the
 * student's code broke what the handout gave, the table says so, and the lab is not at full
 * marks. Each lab's table
 * is also kept in {@code runs/labN/grade.txt} for {@code make handin}.
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
 * <p>The table's columns: lab, id, points, module, test, what it checks, hint (one line, shown
 * when the checkpoint fails); tab-separated, {@code #} starts a comment line. JDK only and in
 * one file, so that make runs it from source (java's source-file mode) with no build; Maven is
 * run as {@code $MVN} ({@code mvn -q -B} if unset). {@code --summary} prints the line that ends
 * {@code make test} ({@link #summary}): Surefire's XML is read here only.
 */
public final class Grader {
    static final String TABLE = "labs/checkpoints.tsv";
    static final String HINTS = "labs/hints.tsv";
    /** Which checkpoints run an earlier lab's regions: id, then the regions, comma-separated. */
    static final String NEEDS = "labs/needs.tsv";
    /** The regions' stubs (Handout's): how the grader tells a region still to write. */
    static final String STUBS = "labs/stubs";
    /** Where Maven's and the servers' output goes unless VERBOSE=1, relative to the root. */
    static final String LOG = "target/grade.log";
    private static final String USAGE = "usage: Grader --lab N|N,N...|all [--only ID,ID...] [--score-only] [--root DIR]\n"
            + "       Grader --summary [--root DIR]";

    /** One row of the table. */
    public record Checkpoint(int lab, String id, int points, String module, String test, String checks, String hint) {
        /** The test class, fully qualified. */
        public String testClass() {
            int hash = test.indexOf('#');
            return hash < 0 ? test : test.substring(0, hash);
        }

        /** The test method, or null for the whole class. */
        public String method() {
            int hash = test.indexOf('#');
            return hash < 0 ? null : test.substring(hash + 1);
        }

        /** A checkpoint of 0 points is given: it runs and shows, and scores nothing, since the stub passes it too. */
        public boolean given() {
            return points == 0;
        }

        /** The command that runs this checkpoint alone. */
        String alone() {
            return "make grade LAB=" + lab + " ONLY=" + id;
        }

        /** As Surefire's {@code -Dtest} takes it: the simple class name, and the method if any. */
        String surefireSelector() {
            String cls = testClass().substring(testClass().lastIndexOf('.') + 1);
            return method() == null ? cls : cls + "#" + method();
        }
    }

    /** How a checkpoint came out. */
    enum Outcome { PASS, FAIL, NOT_RUN, NOT_APPLICABLE }

    /**
     * A checkpoint's outcome, and why when it is not a pass; {@code failure}: the first line of
     * what the failed assertion said (an assertion's description, which says what part failed), or "".
     */
    record Score(Checkpoint checkpoint, Outcome outcome, String why, String failure) {
        Score(Checkpoint checkpoint, Outcome outcome, String why) {
            this(checkpoint, outcome, why, "");
        }

        int earned() {
            return outcome == Outcome.PASS ? checkpoint.points() : 0;
        }

        boolean failed() {
            return outcome == Outcome.FAIL || outcome == Outcome.NOT_RUN;
        }
    }

    /**
     * A row of {@code labs/hints.tsv}: the region a checkpoint's failure points to, and, when the
     * first line of the failed assertion's text matches {@code when} (a regex, {@code *} for any), the hint to print
     * instead of the table's ({@code -} keeps the table's).
     */
    record Hint(String id, String region, Pattern when, String text) {
    }

    private final Path root;
    private final int jdk;

    Grader(Path root, int jdk) {
        this.root = root;
        this.jdk = jdk;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String labArg = null;
        Set<String> only = new LinkedHashSet<>();
        boolean runTests = true;
        Path root = Paths.get("");
        boolean summary = false;
        List<Integer> labs;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--summary" -> summary = true;
                    case "--lab" -> labArg = args[++i];
                    case "--only" -> only.addAll(List.of(args[++i].split(",")));
                    case "--score-only" -> runTests = false;
                    case "--root" -> root = Paths.get(args[++i]);
                    default -> throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
                }
            }
            if (summary) {
                try {
                    out.print(summary(root));
                    return 0;
                } catch (IOException | UncheckedIOException e) {
                    err.println("error: " + e.getMessage());
                    return 1;
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
            Grader g = new Grader(root, Runtime.version().feature());
            List<Checkpoint> table = read(root.resolve(TABLE));
            if (labs.isEmpty()) labs = allLabs(table);
            List<Checkpoint> chosen = new ArrayList<>();
            for (int lab : labs) chosen.addAll(select(table, lab, only));
            String unknown = unknownIds(table, labs, only);
            if (unknown != null) {
                err.println("error: " + unknown);
                return 2;
            }
            if (chosen.isEmpty()) {
                err.println("error: no checkpoint for lab " + labArg + (only.isEmpty() ? "" : " among " + only) + " in " + TABLE);
                return 2;
            }
            boolean verbose = "1".equals(System.getenv("VERBOSE"));
            if (runTests) g.runMaven(chosen, verbose, out, err);
            // One Maven run for every lab asked; then a table per lab, and whether each is at full marks.
            List<Score> scores = g.score(chosen);
            List<Hint> hints = readHints(root.resolve(HINTS));
            String buildError = runTests && !verbose ? firstCompileError(root, root.resolve(LOG)) : null;
            if (buildError != null) {
                out.println("\nthe build failed, so no test ran; the compiler's first error:\n  " + buildError.replace("\n", "\n  ")
                        + "\n(the whole of Maven's output: " + LOG + ")");
                hints = List.of();
            }
            Map<String, Blocked> blocked = g.blocked(scores);
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
                if (print(new PrintStream(printed, true, StandardCharsets.UTF_8), lab, title(root, lab), ofLab, hints, blocked,
                        buildError != null)) full++;
                else notFull.add(Integer.toString(lab));
                out.print(printed.toString(StandardCharsets.UTF_8));
                if (runTests) keep(root, lab, only, printed.toString(StandardCharsets.UTF_8));
            }
            if (graded > 1) {
                out.printf(Locale.ROOT, "%n%d of %d labs at full marks%s%n", full, graded, notFull);
            }
            if (runTests && !verbose) out.println("\nMaven's and the servers' output: " + LOG + " (VERBOSE=1 shows it here)");
            return full == graded ? 0 : 1;
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Keeps the lab's table for {@code make handin}: runs/labN/grade.txt, or grade-only.txt beside
     * it for an {@code --only} run (a part of the lab must not stand in for the whole), with the
     * command that graded it and the hash of the sources it graded ({@link #sourcesHash}).
     */
    static void keep(Path root, int lab, Set<String> only, String table) throws IOException {
        Path file = root.resolve("runs/lab" + lab + (only.isEmpty() ? "/grade.txt" : "/grade-only.txt"));
        Files.createDirectories(file.getParent());
        Files.writeString(file, "$ make grade LAB=" + lab + (only.isEmpty() ? "" : " ONLY=" + String.join(",", only))
                + "\n# graded " + java.time.OffsetDateTime.now().withNano(0) + " on JDK " + Runtime.version()
                + "\n# sources sha256 " + sourcesHash(root) + "\n" + table);
    }

    /**
     * The hash of the sources a grade was given for, as {@code sources_hash} in scripts/fresh.sh
     * computes it again at hand-in time: SHA-256 of the lines {@code sha256sum} prints for every
     * file under a {@code src/} folder and every {@code pom.xml} ({@code HASH  ./PATH}), in byte
     * order of their paths, leaving out build output, runs/ and hidden files (an editor's swap file).
     */
    static String sourcesHash(Path root) throws IOException {
        Path top = root.toAbsolutePath().normalize();
        List<String> paths = new ArrayList<>();
        Files.walkFileTree(top, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean pruned = !dir.equals(top) && (name.equals("target") || name.equals("runs") || name.startsWith("."));
                return pruned ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String rel = top.relativize(file).toString().replace('\\', '/');
                String name = file.getFileName().toString();
                boolean source = ("/" + rel).contains("/src/") || name.equals("pom.xml");
                if (attrs.isRegularFile() && source && !name.startsWith(".")) paths.add("./" + rel);
                return FileVisitResult.CONTINUE;
            }
        });
        paths.sort(null);
        try {
            MessageDigest lines = MessageDigest.getInstance("SHA-256");
            for (String path : paths) {
                byte[] file = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(top.resolve(path)));
                lines.update((HexFormat.of().formatHex(file) + "  " + path + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(lines.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
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

    /** Every checkpoint of the table, in its order. */
    public static List<Checkpoint> read(Path table) throws IOException {
        List<Checkpoint> rows = new ArrayList<>();
        for (TsvRow r : tsv(table, 7)) {
            String[] f = r.fields();
            try {
                rows.add(new Checkpoint(Integer.parseInt(f[0]), f[1], Integer.parseInt(f[2]), f[3], f[4], f[5], f[6]));
            } catch (NumberFormatException e) {
                throw new IllegalStateException(table + ":" + r.line() + ": the lab and the points are whole numbers");
            }
        }
        return rows;
    }

    /** One row of a tab-separated table: its line number (from 1) and its fields, stripped. */
    record TsvRow(int line, String[] fields) {}

    /** The rows of a tab-separated table, blank lines and # comments skipped; a row without {@code fields} fields names its line. */
    static List<TsvRow> tsv(Path file, int fields) throws IOException {
        List<TsvRow> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t");
            if (f.length != fields) {
                throw new IllegalStateException(file + ":" + (i + 1) + ": " + fields + " tab-separated fields expected, found " + f.length);
            }
            for (int k = 0; k < f.length; k++) f[k] = f[k].strip();
            rows.add(new TsvRow(i + 1, f));
        }
        return rows;
    }

    /**
     * For each failed checkpoint that runs an earlier lab's regions (labs/needs.tsv) while one
     * of them is still its stub: what to say instead of blaming the checkpoint's own region,
     * as {@code needs lab 3's et-accept and et-read: still stubs}.
     */
    Map<String, Blocked> blocked(List<Score> scores) throws IOException {
        Map<String, Blocked> blocked = new LinkedHashMap<>();
        Map<String, List<String>> needs = readNeeds(root.resolve(NEEDS));
        Map<String, Boolean> stubbed = new HashMap<>();
        List<String> sources = null;
        for (Score s : scores) {
            List<String> regions = needs.get(s.checkpoint().id());
            if (!s.failed() || regions == null) continue;
            if (sources == null) sources = sources();
            Map<String, List<String>> byLab = new TreeMap<>();
            for (String region : regions) {
                Path stub = stubFile(region);
                if (stub == null) continue;
                final List<String> all = sources;
                if (stubbed.computeIfAbsent(region, r -> stillStub(stub, all))) {
                    byLab.computeIfAbsent(labOf(stub), l -> new ArrayList<>()).add(region);
                }
            }
            if (!byLab.isEmpty()) blocked.put(s.checkpoint().id(), new Blocked(s.checkpoint().id(), byLab));
        }
        return blocked;
    }

    /** A failed checkpoint and the regions of earlier labs, by lab, that are still stubs. */
    record Blocked(String id, Map<String, List<String>> byLab) {
        /** {@code loops-et needs lab 3's et-accept and et-read: still stubs (make grade LAB=3)}. */
        String hint() {
            return id + " needs " + said(byLab) + " (make grade LAB=" + String.join(",", byLab.keySet()) + ")";
        }

        static String said(Map<String, ? extends java.util.Collection<String>> byLab) {
            StringJoiner say = new StringJoiner("; ");
            for (Map.Entry<String, ? extends java.util.Collection<String>> e : byLab.entrySet()) {
                List<String> r = new ArrayList<>(e.getValue());
                String names = r.size() == 1 ? r.get(0) : String.join(", ", r.subList(0, r.size() - 1)) + " and " + r.get(r.size() - 1);
                say.add("lab " + e.getKey() + "'s " + names + (r.size() == 1 ? ": still a stub" : ": still stubs"));
            }
            return say.toString();
        }
    }

    /** labs/needs.tsv: checkpoint id to the regions of earlier labs it runs (none if the file is absent). */
    static Map<String, List<String>> readNeeds(Path file) throws IOException {
        Map<String, List<String>> needs = new HashMap<>();
        if (!Files.isRegularFile(file)) return needs;
        for (TsvRow r : tsv(file, 2)) needs.put(r.fields()[0], List.of(r.fields()[1].split("\\s*,\\s*")));
        return needs;
    }

    private Path stubFile(String region) throws IOException {
        Path dir = root.resolve(STUBS);
        if (!Files.isDirectory(dir)) return null;
        try (Stream<Path> stubs = Files.list(dir)) {
            return stubs.filter(p -> p.getFileName().toString().startsWith(region + ".")).findFirst().orElse(null);
        }
    }

    /** The lab whose TODO a stub names ({@code TODO lab 3}), or "?". */
    private static String labOf(Path stub) {
        try {
            Matcher m = Pattern.compile("TODO lab (\\d+)").matcher(Files.readString(stub, StandardCharsets.UTF_8));
            return m.find() ? m.group(1) : "?";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every main source of the tree, each as its lines stripped of indentation, blank lines dropped, joined by newlines. */
    private List<String> sources() throws IOException {
        List<String> texts = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> all = Files.walk(root)) {
            files = all.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/") && !p.toString().contains("/target/")).toList();
        }
        for (Path f : files) texts.add("\n" + normalized(Files.readString(f, StandardCharsets.UTF_8)) + "\n");
        return texts;
    }

    /**
     * A region is still its stub when some source holds each part of the stub (Handout's
     * {@code ---- part N ----} lines part it) line for line, indentation and blank lines aside.
     */
    private static boolean stillStub(Path stub, List<String> sources) {
        try {
            for (String part : Files.readString(stub, StandardCharsets.UTF_8).split("(?m)^---- part \\d+ ----$")) {
                String lines = normalized(part);
                if (lines.isEmpty()) continue;
                boolean found = false;
                for (String source : sources) {
                    if (source.contains("\n" + lines + "\n")) {
                        found = true;
                        break;
                    }
                }
                if (!found) return false;
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String normalized(String text) {
        StringJoiner lines = new StringJoiner("\n");
        for (String line : text.split("\n")) {
            if (!line.isBlank()) lines.add(line.strip());
        }
        return lines.toString();
    }

    /** The rows of {@code labs/hints.tsv} (none if it is absent), in their order: the first that matches wins. */
    static List<Hint> readHints(Path file) throws IOException {
        List<Hint> hints = new ArrayList<>();
        if (!Files.isRegularFile(file)) return hints;
        for (TsvRow r : tsv(file, 4)) {
            String[] f = r.fields();
            hints.add(new Hint(f[0], f[1], f[2].equals("*") ? null : Pattern.compile(f[2], Pattern.CASE_INSENSITIVE), f[3]));
        }
        return hints;
    }

    /** The hints.tsv row for this failure: the first of its checkpoint whose pattern the failure matches, or null. */
    static Hint hintFor(Score s, List<Hint> hints) {
        for (Hint h : hints) {
            if (h.id().equals(s.checkpoint().id()) && (h.when() == null || h.when().matcher(s.failure()).find())) return h;
        }
        return null;
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
    static String title(Path root, int lab) throws IOException {
        String prefix = String.format(Locale.ROOT, "%02d-", lab);
        try (Stream<Path> sheets = Files.list(root.resolve("labs"))) {
            for (Path sheet : sheets.filter(p -> p.getFileName().toString().startsWith(prefix)).toList()) {
                String first = Files.readAllLines(sheet, StandardCharsets.UTF_8).get(0);
                return first.replaceFirst("^#\\s*", "");
            }
        }
        return "Lab " + lab;
    }

    /**
     * Runs the available checkpoints' tests in one Maven run, its output (and the servers') into
     * {@link #LOG}, or to the terminal when {@code verbose}. Failing tests do not stop it; a build
     * that fails leaves reports missing, scored as not run.
     */
    void runMaven(List<Checkpoint> chosen, boolean verbose, PrintStream out, PrintStream err) throws IOException {
        Set<String> modules = new LinkedHashSet<>();
        Set<String> selectors = new LinkedHashSet<>();
        for (Checkpoint c : chosen) {
            if (unavailable(c) != null) continue;
            modules.add(c.module());
            selectors.add(c.surefireSelector());
        }
        if (selectors.isEmpty()) return;
        for (String m : modules) deleteReports(root.resolve(m).resolve("target/surefire-reports"));
        String mvn = System.getenv().getOrDefault("MVN", "mvn -q -B -Dstyle.color=never");
        List<String> cmd = new ArrayList<>(List.of(mvn.trim().split("\\s+")));
        cmd.addAll(List.of("-pl", String.join(",", modules), "-am", "-Dtest=" + String.join(",", selectors),
                "-Dsurefire.failIfNoSpecifiedTests=false", "-Dmaven.test.failure.ignore=true",
                // the table below is the summary; the tests' own output stays in their reports
                "-Dsurefire.printSummary=false", "-Dmaven.test.redirectTestOutputToFile=true",
                "-Dsurefire.timeout=900",
                // a grading follows an edit: the servers' AOT cache would be trained again for a few starts
                "-Dniolab.server.aot=false", "test"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toAbsolutePath().toFile());
        if (verbose) {
            err.println("grading: " + String.join(" ", cmd));
            pb.inheritIO();
        } else {
            Path log = root.resolve(LOG);
            Files.createDirectories(log.getParent());
            Files.writeString(log, "grading: " + String.join(" ", cmd) + "\n");
            pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        }
        List<Checkpoint> pending = new ArrayList<>();
        for (Checkpoint c : chosen) {
            if (unavailable(c) == null) pending.add(c);
        }
        int total = pending.size();
        if (!verbose) {
            out.println("grading " + total + " checkpoint" + (total == 1 ? "" : "s") + ": Maven builds first, then a line per checkpoint as its test class ends");
        }
        long started = System.nanoTime();
        try {
            Process maven = pb.start();
            // Surefire writes a class's report when the class ends: each new report scores its checkpoints at once.
            while (!maven.waitFor(1, TimeUnit.SECONDS)) {
                if (!verbose) progress(pending, total, started, out);
            }
            if (!verbose) progress(pending, total, started, out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the tests ran");
        }
    }

    /** Prints {@code [k/n] id pass (12 s)} for each pending checkpoint whose report is now complete, and drops it. */
    private void progress(List<Checkpoint> pending, int total, long started, PrintStream out) {
        for (java.util.Iterator<Checkpoint> it = pending.iterator(); it.hasNext(); ) {
            Checkpoint c = it.next();
            Path report = reportOf(c);
            if (!Files.isRegularFile(report)) continue;
            Score s = fromReport(c);
            if (s.why() != null && s.why().startsWith("unreadable test report")) continue; // still being written
            it.remove();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            out.printf(Locale.ROOT, "  [%d/%d] %-26s %-4s (%d s)%n", total - pending.size(), total, c.id(),
                    s.outcome() == Outcome.PASS ? "pass" : s.outcome() == Outcome.NOT_APPLICABLE ? "n/a" : "FAIL", seconds);
        }
    }

    private Path reportOf(Checkpoint c) {
        return root.resolve(c.module()).resolve("target/surefire-reports/TEST-" + c.testClass() + ".xml");
    }

    /**
     * The compiler's first error in Maven's log ({@code file:line: message}, the file relative
     * to the root, with the symbol and location lines under it), or null when nothing failed to compile.
     */
    static String firstCompileError(Path root, Path log) throws IOException {
        if (!Files.isRegularFile(log)) return null;
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        Pattern error = Pattern.compile("^\\[ERROR\\] (\\S+\\.java):\\[(\\d+),\\d+\\] (.*)$");
        Path abs = root.toAbsolutePath().normalize();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = error.matcher(lines.get(i));
            if (!m.matches()) continue;
            Path file = Paths.get(m.group(1));
            String where = file.isAbsolute() && file.startsWith(abs) ? abs.relativize(file).toString() : m.group(1);
            StringBuilder sb = new StringBuilder(where + ":" + m.group(2) + ": " + m.group(3));
            for (int j = i + 1; j < lines.size() && j <= i + 2; j++) {
                String more = lines.get(j).replaceFirst("^\\[ERROR\\]", "").strip();
                if (!more.startsWith("symbol:") && !more.startsWith("location:") && !more.startsWith("required:") && !more.startsWith("found:")) break;
                sb.append('\n').append("  ").append(more);
            }
            return sb.toString();
        }
        return null;
    }

    /**
     * The line {@code make test} ends with, summing the Surefire reports of every module (one or
     * two folders deep): {@code tests: N passed, N failed, N skipped}, and, when some were
     * skipped, what for, grouped by the capability a skip names (test-kit's Capability writes
     * {@code [label] why}) or by its whole reason when it names none:
     * {@code (3 for io_uring: the kernel refuses it; 1 for needs root)}. This and the grading
     * read Surefire's XML here and nowhere else; {@code scripts/test-summary.sh} runs it.
     */
    static String summary(Path root) throws IOException {
        List<Path> reports = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root, 5)) {
            for (Path p : all.filter(f -> f.getFileName().toString().startsWith("TEST-") && f.toString().endsWith(".xml")).sorted().toList()) {
                Path dir = root.relativize(p).getParent();
                // module/target/surefire-reports or group/module/target/surefire-reports
                if (dir != null && dir.endsWith(Paths.get("target", "surefire-reports")) && dir.getNameCount() <= 4) reports.add(p);
            }
        }
        long run = 0, failed = 0, skipped = 0;
        Map<String, int[]> count = new LinkedHashMap<>();
        Map<String, String> first = new HashMap<>();
        for (Path report : reports) {
            Element suite;
            try {
                suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile()).getDocumentElement();
            } catch (Exception e) {
                throw new IOException("unreadable test report " + report + ": " + e.getMessage());
            }
            run += number(suite, "tests");
            failed += number(suite, "failures") + number(suite, "errors");
            skipped += number(suite, "skipped");
            NodeList skips = suite.getElementsByTagName("skipped");
            for (int i = 0; i < skips.getLength(); i++) {
                String why = skipReason((Element) skips.item(i));
                if (why.isEmpty()) continue;
                String key = why;
                Matcher label = Pattern.compile("^\\[([^]]*)\\] ").matcher(why);
                if (label.find()) {
                    key = label.group(1);
                    why = why.substring(label.end());
                }
                count.computeIfAbsent(key, k -> new int[1])[0]++;
                first.putIfAbsent(key, why);
            }
        }
        StringJoiner detail = new StringJoiner("; ", " (", ")").setEmptyValue("");
        for (Map.Entry<String, int[]> e : count.entrySet()) {
            String why = first.get(e.getKey());
            detail.add(e.getValue()[0] + " for " + (e.getKey().equals(why) ? "" : e.getKey() + ": ") + why);
        }
        return String.format(Locale.ROOT, "%ntests: %d passed, %d failed, %d skipped%s%n", run - failed - skipped, failed, skipped, detail);
    }

    private static long number(Element suite, String attribute) {
        String v = suite.getAttribute(attribute);
        return v.isEmpty() ? 0 : Long.parseLong(v.strip());
    }

    /** Why a case was skipped: the message, or the first line of the exception in the body; "Assumption failed: " dropped. */
    private static String skipReason(Element skipped) {
        String why = skipped.getAttribute("message");
        if (why.isBlank()) {
            String body = skipped.getTextContent().strip();
            String line = body.isEmpty() ? "" : body.split("\n", 2)[0];
            int colon = line.indexOf(": ");
            why = colon < 0 ? "" : line.substring(colon + 2);
        }
        return why.replaceFirst("^Assumption failed: ", "").strip();
    }

    /** Scores each checkpoint from the Surefire reports in its module. */
    List<Score> score(List<Checkpoint> chosen) {
        List<Score> scores = new ArrayList<>();
        for (Checkpoint c : chosen) {
            String unavailable = unavailable(c);
            scores.add(unavailable != null ? new Score(c, Outcome.NOT_APPLICABLE, unavailable) : fromReport(c));
        }
        return scores;
    }

    /** Why the checkpoint cannot run here (its test is missing, or needs a newer JDK), or null. */
    String unavailable(Checkpoint c) {
        String path = c.testClass().replace('.', '/') + ".java";
        Path tests = root.resolve(c.module()).resolve("src/test");
        if (Files.isRegularFile(tests.resolve("java").resolve(path))) return null;
        for (int feature : new int[] {21, 22}) {
            if (Files.isRegularFile(tests.resolve("java" + feature).resolve(path))) {
                return jdk >= feature ? null : "needs JDK " + feature + " or newer (this one is " + jdk + ")";
            }
        }
        return c.testClass() + " is not in this tree";
    }

    private Score fromReport(Checkpoint c) {
        Path report = reportOf(c);
        if (!Files.isRegularFile(report)) return new Score(c, Outcome.NOT_RUN, "no test report: did the build fail? (see Maven's output in " + LOG + ")");
        NodeList cases;
        try {
            cases = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile()).getElementsByTagName("testcase");
        } catch (Exception e) {
            return new Score(c, Outcome.NOT_RUN, "unreadable test report " + report + ": " + e.getMessage());
        }
        int ran = 0, skipped = 0;
        String failed = null, message = "", type = "";
        for (int i = 0; i < cases.getLength(); i++) {
            Element t = (Element) cases.item(i);
            if (!isCaseOf(c, t.getAttribute("name"))) continue;
            ran++;
            if (has(t, "skipped")) {
                skipped++;
            } else if (failed == null && (has(t, "failure") || has(t, "error"))) {
                failed = t.getAttribute("name");
                message = failureText(t);
                type = failureType(t);
            }
        }
        if (ran == 0) return new Score(c, Outcome.NOT_RUN, "the test did not run: is " + c.test() + " spelled as in its class?");
        if (failed != null) {
            String line = message.strip().split("\n", 2)[0].strip();
            String said = serverSaid(message);
            if (said == null && (type.equals("java.net.ConnectException") || GONE.matcher(message).find())) {
                said = serverSaid(c, cases); // the server died, as another case of the checkpoint, or the class's, may say
            }
            return new Score(c, Outcome.FAIL, failed + " failed: " + summary(message) + meaning(type)
                    + (said == null ? "" : "\nthe server said: " + shortened(said, 160)) + "\nrun it alone: " + c.alone()
                    + " (the report: " + root.relativize(report) + ")", line);
        }
        if (skipped == ran) return new Score(c, Outcome.NOT_APPLICABLE, "skipped on this machine (an assumption did not hold)");
        return new Score(c, Outcome.PASS, null);
    }

    /** A parameterized case is reported as {@code method(String)[1]}. */
    private static boolean isCaseOf(Checkpoint c, String caseName) {
        String m = c.method();
        return m == null || caseName.equals(m) || caseName.startsWith(m + "(") || caseName.startsWith(m + "[");
    }

    /**
     * What the failed assertion said: the failure's (or error's) message; without one (an
     * exception with no message), its type and the first line of its trace.
     */
    private static String failureText(Element testcase) {
        NodeList f = testcase.getElementsByTagName(has(testcase, "failure") ? "failure" : "error");
        Element e = (Element) f.item(0);
        String message = e.getAttribute("message");
        if (!message.isBlank()) return message;
        String trace = e.getTextContent().strip();
        return e.getAttribute("type") + (trace.isEmpty() ? "" : "\n" + trace.split("\n", 2)[0]);
    }

    /** The class of the failure's (or error's) exception, as the report names it, or "". */
    private static String failureType(Element testcase) {
        NodeList f = testcase.getElementsByTagName(has(testcase, "failure") ? "failure" : "error");
        return ((Element) f.item(0)).getAttribute("type");
    }

    /**
     * What a bare network exception means for the server under test, where its message alone
     * ("Read timed out", "Connection refused") says neither what was expected nor what came.
     */
    static String meaning(String type) {
        return switch (type) {
            case "java.net.SocketTimeoutException" ->
                "\n    expected: an answer; came: nothing more before the test's socket timeout (the server stalled)";
            case "java.net.ConnectException" ->
                "\n    expected: a server on the port; came: a refused connect (the server had stopped, or never started)";
            case "java.net.SocketException" ->
                "\n    expected: an open connection; came: the server had closed or reset it";
            default -> "";
        };
    }

    /** The first line a server printed as {@code error: ...} (a worker's, {@code [wN] error: ...}, too) in {@code text}, or null. */
    static String serverSaid(String text) {
        Matcher m = SERVER_ERROR.matcher(text);
        return m.find() ? m.group(1).strip() : null;
    }

    /** A failure that says the server was gone: its error line may be under another case of the class. */
    private static final Pattern GONE = Pattern.compile("(?i)broken pipe|connection reset|the server closed");

    private static final Pattern SERVER_ERROR = Pattern.compile("(?m)^(?:\\[w\\d+\\] )?(error: \\S.*)$");

    /**
     * The first {@code error: ...} line in a failure or error of the checkpoint's own cases or of
     * the class itself ({@code initializationError}: a shared server that died says why there).
     */
    private static String serverSaid(Checkpoint c, NodeList cases) {
        for (int i = 0; i < cases.getLength(); i++) {
            Element t = (Element) cases.item(i);
            if (!isCaseOf(c, t.getAttribute("name")) && !t.getAttribute("name").equals("initializationError")) continue;
            if (!has(t, "failure") && !has(t, "error")) continue;
            String said = serverSaid(failureText(t));
            if (said != null) return said;
        }
        return null;
    }

    /** Where an assertion's parts start: its description, what was expected, what came instead. */
    private static final Pattern PART = Pattern.compile(
            "(?i)(?<!not )(?=\\b(?:expected:|expecting|but was|but found|but could not|but some|but had|to be |to contain|to have|to match|to start|to end|not to |when comparing))");

    /**
     * The failed assertion on a few lines: its description, then what was expected and what came
     * instead, each part cut at 120 characters, five parts at most, so that a large actual
     * value still leaves the expected one in sight.
     */
    static String summary(String message) {
        String flat = message.replaceAll("\\s+", " ").strip();
        List<String> parts = new ArrayList<>();
        for (String part : PART.split(flat)) {
            if (!part.isBlank()) parts.add(shortened(part.strip(), 120));
        }
        if (parts.size() > 5) {
            int more = parts.size() - 5;
            parts = new ArrayList<>(parts.subList(0, 5));
            parts.add("(" + more + " more parts)");
        }
        return parts.isEmpty() ? "(no message)" : String.join("\n    ", parts);
    }

    /** A line of at most {@code max} characters. */
    static String shortened(String line, int max) {
        return line.length() > max ? line.substring(0, max - 3) + "..." : line;
    }

    private static boolean has(Element testcase, String child) {
        return testcase.getElementsByTagName(child).getLength() > 0;
    }

    private static void deleteReports(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) Files.deleteIfExists(f);
        }
    }

    /** Said under a given checkpoint that failed: the handout's code passed it, so the student's change broke it. */
    static final String GIVEN_BROKEN = "this part came working with the handout (it scores nothing), and your code broke it:"
            + " the lab is not at full marks until it passes again (git diff shows what you changed)";

    static boolean print(PrintStream out, int lab, String title, List<Score> scores, List<Hint> hints) {
        return print(out, lab, title, scores, hints, Map.of(), false);
    }

    /**
     * Prints a line per checkpoint, a hint under each failure (keyed by hints.tsv to what failed,
     * with the region it points to; or the earlier lab's regions still to write, from
     * {@code blocked}; none when the build failed), the total, and the first failure to fix; true at full marks.
     */
    static boolean print(PrintStream out, int lab, String title, List<Score> scores, List<Hint> hints, Map<String, Blocked> blocked,
            boolean buildFailed) {
        int width = "total".length();
        for (Score s : scores) width = Math.max(width, s.checkpoint().id().length());
        String row = "  %-" + width + "s %6s  %-5s  %s%n";
        String indent = " ".repeat(width + 18);
        out.printf(Locale.ROOT, "%nlab %d: %s%n", lab, title.replaceFirst("(?i)^lab \\d+:\\s*", ""));
        int earned = 0, possible = 0, failures = 0, givenBroken = 0;
        Score first = null;
        Map<String, Set<String>> blockers = new TreeMap<>();
        for (Score s : scores) {
            Checkpoint c = s.checkpoint();
            switch (s.outcome()) {
                case PASS -> out.printf(Locale.ROOT, row, c.id(), c.points() + "/" + c.points(), c.given() ? "given" : "pass", c.checks());
                case NOT_APPLICABLE -> out.printf(Locale.ROOT, row, c.id(), "-", "n/a", c.checks() + " (" + s.why() + ")");
                default -> {
                    out.printf(Locale.ROOT, row, c.id(), c.given() ? "given" : "0/" + c.points(), "FAIL", c.checks());
                    if (buildFailed) {
                        out.println(indent + "not run: the build failed (above)");
                        break;
                    }
                    if (c.given() && s.outcome() == Outcome.FAIL) {
                        givenBroken++;
                        // an earlier lab's stub broke it, not the student's code: the needs hint below says which
                        if (!blocked.containsKey(c.id())) out.println(indent + GIVEN_BROKEN);
                    }
                    Blocked needs = blocked.get(c.id());
                    if (needs != null) {
                        out.println(indent + "hint: " + needs.hint());
                        needs.byLab().forEach((l, regions) -> blockers.computeIfAbsent(l, k -> new LinkedHashSet<>()).addAll(regions));
                    } else {
                        Hint h = hintFor(s, hints);
                        String region = h == null || h.region().equals("-") ? "" : " [" + h.region() + "]";
                        out.println(indent + "hint" + region + ": " + (h == null || h.text().equals("-") ? c.hint() : h.text()));
                    }
                    for (String line : s.why().split("\n")) out.println(indent + line);
                }
            }
            if (s.failed() && !blocked.containsKey(c.id())) {
                failures++;
                if (first == null) first = s;
            }
            earned += s.earned();
            if (s.outcome() != Outcome.NOT_APPLICABLE) possible += c.points();
        }
        // A given checkpoint scores nothing, but one the student's code broke keeps the lab from full marks.
        boolean full = possible > 0 && earned == possible && givenBroken == 0;
        out.printf(Locale.ROOT, row, "total", earned + "/" + possible, full ? "full" : "",
                givenBroken == 0 ? "" : "not full: " + (givenBroken == 1 ? "a given part is" : givenBroken + " given parts are") + " broken (above)");
        if (buildFailed && (failures > 0 || !blocked.isEmpty())) {
            out.println("  start with the compiler's error above");
        } else if (first != null) {
            // The table lists each lab's checkpoints in dependency order: what the first failure breaks, later ones need.
            Hint h = hintFor(first, hints);
            String region = h == null || h.region().equals("-") ? "" : " (region " + h.region() + ")";
            out.println(failures > 1 ? "  several failures may share one cause: start with " + first.checkpoint().id() + region
                    : "  start with " + first.checkpoint().id() + region);
        }
        if (!blockers.isEmpty() && !buildFailed) {
            out.println("  " + (first == null ? "start with the earlier labs: " : "then the earlier labs: ") + Blocked.said(blockers));
        }
        return full;
    }
}
