package niolab.course;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.course.Course.Checkpoint;
import niolab.course.Scoring.Outcome;
import niolab.course.Scoring.Score;

/**
 * The grading's one Maven run: the chosen checkpoints' tests, its output (and the servers') into
 * {@link #LOG}, a line per checkpoint as its test class ends; and the compiler's first error
 * when the build failed.
 */
final class MavenRun {
    /** Where Maven's and the servers' output goes unless VERBOSE=1, relative to the root. */
    static final String LOG = "target/grade.log";

    private final Scoring scoring;
    private final Path root;

    MavenRun(Path root, Scoring scoring) {
        this.root = root;
        this.scoring = scoring;
    }

    /** As Surefire's {@code -Dtest} takes a checkpoint: the simple class name, and the method if any. */
    static String selector(Checkpoint c) {
        String cls = c.testClass().substring(c.testClass().lastIndexOf('.') + 1);
        return c.method() == null ? cls : cls + "#" + c.method();
    }

    /**
     * Runs the available checkpoints' tests in one Maven run, its output (and the servers') into
     * {@link #LOG}, or to the terminal when {@code verbose}. Failing tests do not stop it; a build
     * that fails leaves reports missing, scored as not run.
     */
    void run(List<Checkpoint> chosen, boolean verbose, PrintStream out, PrintStream err) throws IOException {
        Set<String> modules = new LinkedHashSet<>();
        Set<String> selectors = new LinkedHashSet<>();
        for (Checkpoint c : chosen) {
            if (scoring.unavailable(c) != null) continue;
            modules.add(c.module());
            selectors.add(selector(c));
        }
        if (selectors.isEmpty()) return;
        for (String m : modules) SurefireReports.deleteReports(root.resolve(m).resolve("target/surefire-reports"));
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
            if (scoring.unavailable(c) == null) pending.add(c);
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
            Path report = SurefireReports.reportOf(root, c);
            if (!Files.isRegularFile(report)) continue;
            Score s = SurefireReports.score(root, c);
            if (s.why() != null && s.why().startsWith("unreadable test report")) continue; // still being written
            it.remove();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            out.printf(Locale.ROOT, "  [%d/%d] %-26s %-4s (%d s)%n", total - pending.size(), total, c.id(),
                    s.outcome() == Outcome.PASS ? "pass" : s.outcome() == Outcome.NOT_APPLICABLE ? "n/a" : "FAIL", seconds);
        }
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
}
