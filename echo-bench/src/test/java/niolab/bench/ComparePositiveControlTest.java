package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** compare's positive control, a class of its own so that its run, the longest of compare's tests, has a test JVM to itself. */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ComparePositiveControlTest {
    /**
     * The positive control, through the real command path: B is A's command with busy work per
     * read, and compare, adding forks until it decides, must call B slower (and never faster).
     * In the suite, whose parallel test JVMs move a latency-bound server's rate from slice to slice
     * by a factor of ten and more, the work is sized to an 80% slowdown; {@code -Dniolab.bench.positiveControl=10}
     * sizes it instead, from a measurement of A's rate here, to a 10% slowdown, for a quiet machine.
     */
    @Test
    void aMeasuredSlowdownIsCalledSlower() {
        String tag = "tag-" + UUID.randomUUID();
        double slowdown = Integer.getInteger("niolab.bench.positiveControl", 80) / 100.0;
        Cli pilot = Cli.run("compare", "--forks", "3", "--rounds", "3", "--slice", "150ms", "--warmup", "300ms", "-c", "1", "-k",
                "A=" + FakeServer.command("echo", tag), "A2=" + FakeServer.command("echo", tag));
        assertThat(pilot.code()).as(pilot.out() + pilot.err()).isZero();
        java.util.regex.Matcher median = java.util.regex.Pattern.compile("\nA +\\(command\\) +\\d+ +([0-9,]+) ").matcher(pilot.out());
        assertThat(median.find()).as(pilot.out()).isTrue();
        double rate = Double.parseDouble(median.group(1).replace(",", ""));
        // 1/rate per request becomes 1/((1 - slowdown) rate): the work is the difference
        long work = Math.round(1e9 / rate * (1 / (1 - slowdown) - 1));
        Cli run = Cli.run("compare", "--until-decided", "--max-time", "60s", "--rounds", "3", "--slice", "150ms", "--warmup", "300ms", "-c", "1",
                "-k", "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("work-" + work, tag));
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).as("work %d ns against %.0f requests/s", work, rate).containsPattern("\nB +rate .* slower by ")
                .containsPattern("interval \\(look \\d+ of a run until decided");
        assertThat(FakeServer.tagged(tag)).isEmpty();
    }

}
