package niolab.course.notes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import niolab.course.Course;
import niolab.reports.Md;

/**
 * The grading times {@code make grade-times} measured ({@code labs/grade-times.tsv}), as the
 * {@code gradetimes} block of labs/README.md: the machine and its load, then a
 * row per lab timed, reference against stubs. Nothing here is typed: with no file, the block
 * says that no run is committed.
 */
final class GradeTimes {
    static final String FILE = "labs/grade-times.tsv";
    private static final String[] TREES = {"reference", "stubs"};

    private GradeTimes() {
    }

    /** The block's text for the file under {@code root}, or the sentence saying there is none. */
    static String block(Path root) throws IOException {
        return block(root, null);
    }

    /**
     * As {@link #block(Path)}; a lab whose points in the file differ from its points in
     * {@code checkpoints} (the current table) was scored on an older table: its time is kept,
     * its scores are not quoted.
     */
    static String block(Path root, List<Course.Checkpoint> checkpoints) throws IOException {
        Path file = root.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return "No grading times are committed (`" + FILE + "` is missing): `make grade-times` measures them "
                    + "(`make grade LAB=N` in a fresh handout, with the reference and with the stubs) and `make labs` "
                    + "quotes them here.";
        }
        Map<String, String> about = new LinkedHashMap<>();
        Map<Integer, Map<String, String[]>> byLab = new TreeMap<>();
        boolean rows = false;
        int lineNo = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            lineNo++;
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t", -1);
            if (f[0].equals("lab")) {
                rows = true;
            } else if (!rows && f.length == 2) {
                about.put(f[0], f[1]);
            } else if (rows && f.length == 6) {
                byLab.computeIfAbsent(Integer.parseInt(f[0]), k -> new TreeMap<>()).put(f[1], f);
            } else {
                throw new IllegalArgumentException(FILE + ":" + lineNo + ": expected key<TAB>value, or lab, tree, seconds, earned, possible, exit");
            }
        }
        for (String key : new String[] {"date", "cpu", "nproc", "kernel", "jdk", "maven", "load_before", "load_after", "wall_seconds"}) {
            if (!about.containsKey(key)) throw new IllegalArgumentException(FILE + ": no " + key + " line (rerun make grade-times)");
        }
        if (byLab.isEmpty()) throw new IllegalArgumentException(FILE + ": no lab was timed (rerun make grade-times)");

        List<List<String>> table = new ArrayList<>();
        StringJoiner timed = new StringJoiner(", ");
        String slowest = null;
        int slowestSeconds = -1;
        for (Map.Entry<Integer, Map<String, String[]>> lab : byLab.entrySet()) {
            timed.add(Integer.toString(lab.getKey()));
            List<String> row = new ArrayList<>(List.of("lab " + lab.getKey()));
            for (String tree : TREES) {
                String[] f = lab.getValue().get(tree);
                if (f == null) {
                    row.add("not timed");
                    continue;
                }
                int now = pointsOf(lab.getKey(), checkpoints);
                row.add(now < 0 || now == Integer.parseInt(f[4]) ? f[2] + " s, " + f[3] + " of " + f[4] + " points"
                        : f[2] + " s (scored on an older checkpoint table: rerun `make grade-times`)");
                int seconds = Integer.parseInt(f[2]);
                if (seconds > slowestSeconds) {
                    slowestSeconds = seconds;
                    slowest = "lab " + lab.getKey() + " " + (tree.equals("reference") ? "at full marks" : "on the stubs");
                }
            }
            table.add(row);
        }
        return "`make grade LAB=N` as `make grade-times` timed it on " + about.get("date") + ": " + about.get("cpu") + ", "
                + about.get("nproc") + " cores, Linux " + about.get("kernel") + ", " + about.get("jdk") + ", Maven as `"
                + about.get("maven") + "`; load average (1, 5, 15 min) " + about.get("load_before") + " before, "
                + about.get("load_after") + " after. Each handout was built first (`make all`, not timed). Labs timed: "
                + timed + "; the slowest, " + slowest + ", took " + slowestSeconds + " s; the whole run, builds included, "
                + about.get("wall_seconds") + " s.\n\n"
                + Md.table(List.of("lab", "reference (`make handout SOLUTIONS=1`)", "fresh handout (the stubs)"), table, "lrr");
    }

    /** Lab {@code lab}'s points in the current table, or -1 without one. */
    private static int pointsOf(int lab, List<Course.Checkpoint> checkpoints) {
        if (checkpoints == null) return -1;
        int points = 0;
        for (Course.Checkpoint c : checkpoints) {
            if (c.lab() == lab) points += c.points();
        }
        return points;
    }
}
