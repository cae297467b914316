package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import niolab.course.Handout.Region;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Every planted mistake is caught: the labs' classic bugs, each planted in the reference, fail the
 * checkpoint named with them, and the hint names the region. One grading per round of bugs, each
 * in a handout of its own; the rounds are shared between two classes ({@link GradedBugsTest},
 * {@link GradedBugsOddRoundsTest}) so that their gradings run side by side in two test JVMs, beside
 * {@link GradedStubsTest} and {@link GradedReferenceTest}.
 */
abstract class GradedBugs {
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
        return Course.read(GradedHandout.LAB).bugs();
    }

    /**
     * The bugs in rounds, each bug in the first round that holds no other bug of its region, so
     * that no bug hides another (two bugs of one region, or of one line, are planted in turn).
     */
    static List<List<Course.Bug>> allRounds() throws IOException {
        List<List<Course.Bug>> rounds = new ArrayList<>();
        for (Course.Bug b : bugs()) {
            List<Course.Bug> round = rounds.stream().filter(r -> r.stream().noneMatch(o -> o.region().equals(b.region()))).findFirst().orElse(null);
            if (round == null) rounds.add(round = new ArrayList<>());
            round.add(b);
        }
        return rounds;
    }

    /** The rounds whose index has this parity (0: the first, third...), with the checkpoints that must catch their bugs. */
    static Stream<Arguments> ofParity(int parity) throws IOException {
        List<List<Course.Bug>> rounds = allRounds();
        List<Arguments> mine = new ArrayList<>();
        for (int k = parity; k < rounds.size(); k += 2) {
            mine.add(Arguments.of(k + 1, rounds.get(k).stream().map(Course.Bug::checkpoint).collect(Collectors.joining(", "))));
        }
        return mine.stream();
    }

    /**
     * Round {@code round} (from 1): the reference with that round's bugs in, one grading run of the
     * checkpoints they should fail; each lab's bugs are caught by their checkpoints, the hint under
     * each names its region, and so does the last line.
     */
    static void caught(int round, Path tmp) throws Exception {
        List<Course.Bug> bugs = allRounds().get(round - 1);
        GradedHandout.Copy copy = GradedHandout.copy(tmp);
        Path dest = copy.dest();
        Course course = Course.read(GradedHandout.LAB);
        Map<String, Map<String, String>> byFile = new TreeMap<>();
        for (Course.Bug b : bugs) byFile.computeIfAbsent(course.regions().get(b.region()).file(), f -> new TreeMap<>()).put(b.line(), b.broken());
        for (Region r : copy.regions()) GradedHandout.write(dest, r.file(), true, byFile.getOrDefault(r.file().toString(), Map.of()));
        String only = bugs.stream().map(Course.Bug::checkpoint).collect(Collectors.joining(","));
        String out = GradedHandout.sh(dest, "make", "grade", "LAB=all", "ONLY=" + only, GradedHandout.MVN).output();
        Map<Integer, List<Course.Bug>> byLab = new TreeMap<>();
        for (Course.Bug b : bugs) byLab.computeIfAbsent(b.lab(), l -> new ArrayList<>()).add(b);
        for (Map.Entry<Integer, List<Course.Bug>> lab : byLab.entrySet()) caught(lab.getKey(), lab.getValue(), out);
    }

    /** A test per round of the subclass's parity (its static {@code rounds()}): its bugs caught, the hints naming their regions. */
    @ParameterizedTest(name = "round {0}: caught by {1}")
    @MethodSource("rounds")
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void eachBugOfTheRoundIsCaughtAndItsHintNamesTheRegion(int round, String checkpoints, @TempDir Path tmp) throws Exception {
        caught(round, tmp);
    }

    /** Lab {@code lab}'s {@code bugs} in one round's output. */
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
}
