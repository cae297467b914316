package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One long run ranks its leader only when the lead is larger than the steady-half variation of
 * both the leader and the runner-up: the committed run's 7.6% lead sat below the leader's own 12%.
 */
class LongRunExperimentTest {
    @Test
    void aLeadSmallerThanTheLeadersOwnVariationCannotRank() {
        // LT, ET, MP as in the committed run: ET leads LT by 7.6%, ET's steady half varies by 12%, LT's by 5%
        String v = LongRunExperiment.rankingVerdict(new double[] {12051.3, 12969.0, 10133.4}, new double[] {0.05, 0.12, 0.28});
        assertThat(v).startsWith("the lead of 7.6% over LT is no larger than ET's steady-half variation (12.0%")
                .endsWith("so this run cannot rank them");
    }

    @Test
    void theRunnerUpsVariationCountsToo() {
        // the leader is steady, the runner-up wanders by more than the lead
        String v = LongRunExperiment.rankingVerdict(new double[] {100, 110, 50}, new double[] {0.15, 0.02, 0.01});
        assertThat(v).contains("over LT is no larger than LT's steady-half variation (15.0%").endsWith("cannot rank them");
    }

    @Test
    void aLeadBeyondBothVariationsRanksButClaimsNoInterval() {
        // MP leads ET by 20%; the third server's wide variation does not matter
        String v = LongRunExperiment.rankingVerdict(new double[] {50, 100, 120}, new double[] {0.9, 0.05, 0.08});
        assertThat(v).startsWith("the lead of 20.0% over ET is larger than MP's steady-half variation (8.0%")
                .endsWith("no interval");
    }

    /** A series of 10 one-second intervals: {@code qps} per interval, P99 100 µs throughout. */
    private static LongRunExperiment.Series series(double... qps) {
        double[] t = new double[qps.length], p99 = new double[qps.length];
        for (int i = 0; i < t.length; i++) {
            t[i] = i + 1;
            p99[i] = 100;
        }
        return new LongRunExperiment.Series(new double[] {1000, 1000, 1000}, 10000, t, qps, p99, 9000, 100, 0);
    }

    @Test
    void theShapeAndTheRankingComeFromAnalyseOnHandMadeSeries() {
        // LT rises in one interval; ET over several; MP's steady half wanders by more than any rise
        LongRunExperiment.Data d = new LongRunExperiment.Data(List.of(
                series(1000, 1100, 9000, 9000, 9000, 9000, 9000, 9000, 9000, 9000),
                series(1000, 3000, 5000, 7000, 9000, 10000, 10000, 10000, 10000, 10000),
                series(5000, 5200, 5400, 5600, 5800, 8000, 4000, 8000, 4000, 8000)), 1.0);
        LongRunExperiment.Findings f = LongRunExperiment.analyse(d);
        assertThat(f.archs()).extracting(LongRunExperiment.Arch::shape)
                .containsExactly(LongRunExperiment.Shape.STEP, LongRunExperiment.Shape.SLOPE, LongRunExperiment.Shape.UNCLEAR);
        // ET leads LT by 11.1%, more than either's steady-half variation (0% each): ranked, with no interval claimed
        assertThat(f.best()).isEqualTo(1);
        assertThat(f.next()).isEqualTo(0);
        assertThat(f.ranked()).isTrue();
        assertThat(f.archs().get(0).ratio()).isEqualTo(9.0);
        // LT reaches 90% of its steady 9000 at t = 3 s, ET of its 10000 at t = 5 s, MP of its 8000 at t = 6 s
        assertThat(f.archs()).extracting(LongRunExperiment.Arch::warmS).containsExactly(3.0, 5.0, 6.0);
        assertThat(f.slowest()).isEqualTo(2);
    }

    @Test
    void eachShapeListsItsServersAndTheSeparatorCaseFollowsWhatComesAfterTheSteps() throws IOException {
        LongRunExperiment.Data d = new LongRunExperiment.Data(List.of(
                series(1000, 1100, 9000, 9000, 9000, 9000, 9000, 9000, 9000, 9000),
                series(1000, 1100, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 9900),
                series(5000, 5200, 5400, 5600, 5800, 8000, 4000, 8000, 4000, 8000)), 1.0);
        Report out = new Report();
        LongRunExperiment.render(LongRunExperiment.analyse(d), out);
        assertThat(out.values()).containsEntry("shape_steps", "LT and ET").containsEntry("shape_slopes", "")
                .containsEntry("shape_unclear", "MP").containsEntry("shape_after_steps", "true");
        String shape = out.fill("{{=warmup_shape}}" + warmupShapeDefinition() + "{{/=}}{{warmup_shape}}", "shape");
        assertThat(shape).isEqualTo("most of the rise between two consecutive intervals for LT and ET (a step or a slope steeper than"
                + " one interval: one run at this resolution cannot tell which); of no shape this run can tell for MP (the steady half moved"
                + " by more than the largest rise)");
    }

    /** The template's own wording of the shapes, so that the test reads the sentence the report prints. */
    private static String warmupShapeDefinition() throws IOException {
        String t = Files.readString(Path.of("..", "templates", "exp-long-run.md"), StandardCharsets.UTF_8);
        return t.substring(t.indexOf("{{=warmup_shape}}") + "{{=warmup_shape}}".length(), t.indexOf("{{/=}}"));
    }
}
