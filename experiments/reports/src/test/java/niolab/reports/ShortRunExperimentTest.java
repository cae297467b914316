package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * exp-short-run's headline is the paired design's interval; a figure from the 3 sequential runs
 * per server, which give no interval, says so wherever it stands.
 */
class ShortRunExperimentTest {
    private static final Path EXPERIMENTS = Paths.get("..").toAbsolutePath().normalize();

    @Test
    void thePairedRoundsGiveTheIntervalAndTheSequentialRunsSayTheyHaveNone() {
        Report out = new Report();
        new ShortRunExperiment().generate(new Results(EXPERIMENTS.resolve("results/short-run")), out);
        // the committed run's figures change with every rerun: the shape of each sentence does not
        assertThat(out.values.get("pairs_arch")).containsPattern(
                "^with a cold client, the original write-up's setting: (ET|MP) against LT (faster by [0-9.]+% \\[[0-9.]+%, [0-9.]+%\\]|slower by [0-9.]+% \\[[0-9.]+%, [0-9.]+%\\]"
                        + "|the same within ±[0-9.]+%: .*|undecided at this precision \\(±[0-9.]+%\\)) \\(threshold ±[0-9.]+%\\) \\(\\d+ rounds\\);.*"
                        + "; with the warmed client: (ET|MP) against LT ");
        assertThat(out.values.get("best_qps_line")).matches("(LT|ET|MP) \\(.*; 3 runs, no interval\\)");
        assertThat(out.values.get("best_p99_line")).endsWith("; 3 runs, no interval)");
        assertThat(out.values.get("warm_reading")).endsWith("(3 runs, no interval)");
    }
}
