package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import niolab.course.Handout.Region;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The grader can pass, for every lab: with the reference regions put back, every lab scores full marks ({@link GradedStubsTest}'s checkpoints). */
class GradedReferenceTest {
    @Test
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void theReferenceRegionsScoreFullMarksInEveryLab(@TempDir Path tmp) throws Exception {
        GradedHandout.Copy copy = GradedHandout.copy(tmp);
        Path dest = copy.dest();
        int labs = GradedStubsTest.labs();
        for (Region r : copy.regions()) GradedHandout.write(dest, r.file(), true, Map.of());
        GradedHandout.Result reference = GradedHandout.sh(dest, "make", "grade", "LAB=all", "ONLY=" + GradedStubsTest.ONE_PER_LAB, GradedHandout.MVN);
        assertThat(reference.code()).as(reference.output()).isZero();
        assertThat(reference.output()).contains("\n" + labs + " of " + labs + " labs at full marks\n").doesNotContain("FAIL");
    }
}
