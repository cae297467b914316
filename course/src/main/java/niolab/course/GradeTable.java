package niolab.course;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import niolab.course.Course.Checkpoint;
import niolab.course.Course.Hint;
import niolab.course.Scoring.Blocked;
import niolab.course.Scoring.Outcome;
import niolab.course.Scoring.Score;

/**
 * A lab's grade table: a line per checkpoint, a hint under each failure, the total and the first
 * failure to fix; and the table kept for {@code make handin} with the hash of what it graded.
 */
final class GradeTable {
    private GradeTable() {
    }

    /**
     * Keeps the lab's table for {@code make handin}: runs/labN/grade.txt, or grade-only.txt beside
     * it for an {@code --only} run (a part of the lab must not stand in for the whole), with the
     * command that graded it and the hash of the sources it graded ({@link Sources#hash}); and
     * beside it (grade.sha256, grade-only.sha256) every source's hash, so that the hand-in can
     * name what changed since by content.
     */
    static void keep(Path root, Course course, int lab, Set<String> only, String table) throws IOException {
        String name = "runs/lab" + lab + (only.isEmpty() ? "/grade" : "/grade-only");
        Path file = root.resolve(name + ".txt");
        Files.createDirectories(file.getParent());
        Files.writeString(root.resolve(name + ".sha256"), Sources.lines(root, Sources.all(root)));
        Files.writeString(file, "$ make grade LAB=" + lab + (only.isEmpty() ? "" : " ONLY=" + String.join(",", only))
                + "\n# graded " + java.time.OffsetDateTime.now().withNano(0) + " on JDK " + Runtime.version()
                + "\n# sources sha256 " + Sources.hash(root, course, lab) + "\n" + table);
    }

    /** The [hints] row for this failure: the first of its checkpoint whose pattern the failure matches, or null. */
    static Hint hintFor(Score s, List<Hint> hints) {
        for (Hint h : hints) {
            if (h.id().equals(s.checkpoint().id()) && (h.when() == null || h.when().matcher(s.failure()).find())) return h;
        }
        return null;
    }

    /** Said under a given checkpoint that failed: the handout's code passed it, so the student's change broke it. */
    static final String GIVEN_BROKEN = "this part came working with the handout (it scores nothing), and your code broke it:"
            + " the lab is not at full marks until it passes again (git diff shows what you changed)";

    static boolean print(PrintStream out, int lab, String title, List<Score> scores, List<Hint> hints) {
        return print(out, lab, title, scores, hints, Map.of(), false);
    }

    /**
     * Prints a line per checkpoint, a hint under each failure (keyed by the manifest's [hints] to what failed,
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

