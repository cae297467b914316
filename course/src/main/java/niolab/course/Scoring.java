package niolab.course;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import niolab.course.Course.Checkpoint;

/**
 * How each checkpoint came out: n/a when its test cannot run here (not in the tree, a newer
 * JDK), else from its Surefire report; and, for a failure that runs another lab's region still
 * in its stub (the manifest's [needs]), that lab, so that the grade names it first.
 */
final class Scoring {
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

    private final Path root;
    private final int jdk;

    Scoring(Path root, int jdk) {
        this.root = root;
        this.jdk = jdk;
    }

    /** Scores each checkpoint from the Surefire reports in its module. */
    List<Score> score(List<Checkpoint> chosen) {
        List<Score> scores = new ArrayList<>();
        for (Checkpoint c : chosen) {
            String unavailable = unavailable(c);
            scores.add(unavailable != null ? new Score(c, Outcome.NOT_APPLICABLE, unavailable) : SurefireReports.score(root, c));
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

    /**
     * For each failed checkpoint that runs another lab's regions (its manifest's [needs]) while
     * one of them is still its stub: what to say instead of blaming the checkpoint's own region,
     * as {@code lab 3's et-accept and et-read are still stubs: loops-et needs them}.
     */
    Map<String, Blocked> blocked(Course course, List<Score> scores) throws IOException {
        Map<String, Blocked> blocked = new LinkedHashMap<>();
        Map<String, List<String>> needs = course.needs();
        Map<String, Boolean> stubbed = new HashMap<>();
        for (Score s : scores) {
            List<String> regions = needs.get(s.checkpoint().id());
            if (!s.failed() || regions == null) continue;
            Map<String, List<String>> byLab = new TreeMap<>();
            for (String id : regions) {
                Course.Region region = course.regions().get(id);
                Path file = root.resolve(region.file());
                if (!stubbed.containsKey(id)) {
                    boolean still = Files.isRegularFile(file) && Files.isRegularFile(root.resolve(region.stub()))
                            && Stubs.read(root, List.of(region)).stillStub(id, Files.readString(file, StandardCharsets.UTF_8));
                    stubbed.put(id, still);
                }
                if (stubbed.get(id)) byLab.computeIfAbsent(Integer.toString(region.lab()), l -> new ArrayList<>()).add(id);
            }
            if (!byLab.isEmpty()) blocked.put(s.checkpoint().id(), new Blocked(s.checkpoint().id(), byLab));
        }
        return blocked;
    }

    /** A failed checkpoint and the regions of earlier labs, by lab, that are still stubs. */
    record Blocked(String id, Map<String, List<String>> byLab) {
        /**
         * The missing lab first, then what needs it: {@code lab 6's http-pipelining is still a
         * stub: vt-no-pinning needs it (make grade LAB=6)}.
         */
        String hint() {
            StringJoiner say = new StringJoiner("; ");
            int regions = 0;
            for (Map.Entry<String, List<String>> e : byLab.entrySet()) {
                regions += e.getValue().size();
                say.add("lab " + e.getKey() + "'s " + names(e.getValue()) + (e.getValue().size() == 1 ? " is still a stub" : " are still stubs"));
            }
            return say + ": " + id + " needs " + (regions == 1 ? "it" : "them") + " (make grade LAB=" + String.join(",", byLab.keySet()) + ")";
        }

        /** {@code lab 3's et-accept and et-read: still stubs}, lab by lab. */
        static String said(Map<String, ? extends java.util.Collection<String>> byLab) {
            StringJoiner say = new StringJoiner("; ");
            for (Map.Entry<String, ? extends java.util.Collection<String>> e : byLab.entrySet()) {
                say.add("lab " + e.getKey() + "'s " + names(e.getValue()) + (e.getValue().size() == 1 ? ": still a stub" : ": still stubs"));
            }
            return say.toString();
        }

        private static String names(java.util.Collection<String> regions) {
            List<String> r = new ArrayList<>(regions);
            return r.size() == 1 ? r.get(0) : String.join(", ", r.subList(0, r.size() - 1)) + " and " + r.get(r.size() - 1);
        }
    }
}
