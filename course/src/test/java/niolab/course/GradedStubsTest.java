package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import niolab.course.Handout.Region;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grader can fail, for every lab: in a fresh handout every lab scores below full marks and
 * every region's stub compiles. {@link GradedReferenceTest} is the other half (it can pass), in a
 * test JVM of its own so that the two gradings run side by side. The whole of each lab is graded
 * by hand: {@code make grade LAB=all}.
 */
class GradedStubsTest {
    /**
     * One checkpoint per lab that the lab's own regions decide (lab 5: its three; lab 7: one for
     * JDK 17, loops-spread, and vt-echo on 21+), the cheapest that a stub fails, each a test of the
     * lab's suites as the grader runs it. The uring checkpoints are left out to keep the gradings
     * short (each is a whole contract class); the classic-bug test grades uring-echo once.
     */
    static final String ONE_PER_LAB = String.join(",", "bio-silent", "lt-backpressure", "et-large", "mp-restart",
            "rate-interleave", "rate-catch-up", "rate-no-drift", "http-parser", "loops-spread", "vt-echo");

    /** The labs, by their sheets. */
    static int labs() throws Exception {
        try (Stream<Path> sheets = Files.list(GradedHandout.LAB.resolve("labs"))) {
            return (int) sheets.filter(p -> p.getFileName().toString().matches("\\d\\d-.*\\.md")).count();
        }
    }

    @Test
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void aFreshHandoutScoresBelowFullMarksInEveryLab(@TempDir Path tmp) throws Exception {
        GradedHandout.Copy copy = GradedHandout.copy(tmp);
        Path dest = copy.dest();
        assertThat(Handout.markersLeft(dest)).isEmpty();
        for (String teacherOnly : List.of("labs/instructor-notes.md", "labs/templates", "labs/teacher-only.txt")) {
            assertThat(dest.resolve(teacherOnly)).doesNotExist();
        }
        int labs = labs();
        for (Region r : copy.regions()) GradedHandout.write(dest, r.file(), false, Map.of());
        GradedHandout.Result skeleton = GradedHandout.sh(dest, "make", "grade", "LAB=all", "ONLY=" + ONE_PER_LAB, GradedHandout.MVN);
        assertThat(skeleton.code()).as(skeleton.output()).isNotZero();
        // Scored from the reports of lab-servers and echo-bench, built from the stubs: none missing means every stub compiles.
        assertThat(skeleton.output()).as("every stub compiles and every checkpoint ran; Maven said:%n%s", GradedHandout.log(dest))
                .doesNotContain("did the build fail").doesNotContain("did not run");
        for (String id : ONE_PER_LAB.split(",")) {
            // a checkpoint for a newer JDK (vt-echo: 21) is n/a on an older one, and scores nothing either way
            if (Runtime.version().feature() < 21 && Pattern.compile("\\n  " + Pattern.quote(id) + " +- +n/a ").matcher(skeleton.output()).find()) continue;
            assertThat(skeleton.output()).as("%s fails on the stubs", id).containsPattern("\\n  " + Pattern.quote(id) + " +0/[1-9]\\d* +FAIL ");
        }
        String every = IntStream.rangeClosed(1, labs).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        assertThat(skeleton.output()).as("every lab below full marks").contains("\n0 of " + labs + " labs at full marks (below: lab " + every + ")");
        if (Runtime.version().feature() >= 21) assertThat(skeleton.output()).doesNotContain("n/a");
        assertThat(skeleton.output()).as("make grade prints the tables and the log's name, no Maven output")
                .doesNotContain("[ERROR]").doesNotContain("[INFO]").doesNotContain("grading: mvn").contains("target/grade.log");
    }
}
