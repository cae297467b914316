package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** exp-mistakes says the machine was shared only when its load says so. */
class MistakesExperimentTest {
    @Test
    void aLoadAboveTheCpuCountIsASharedMachine() {
        assertThat(MistakesExperiment.loadSentence(19.31, 2)).startsWith("The machine was not quiet: its 1-minute load average was 19.31");
        assertThat(MistakesExperiment.loadSentence(0.63, 2)).isEqualTo(
                "The machine was quiet: its 1-minute load average was 0.63 when the run began, on 2 CPUs.");
    }
}
