package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
     * compare runs as its own process at nice -10, and its servers with it ({@link #compare}).
     */
    @Test
    void aMeasuredSlowdownIsCalledSlower() throws Exception {
        String tag = "tag-" + UUID.randomUUID();
        double slowdown = Integer.getInteger("niolab.bench.positiveControl", 80) / 100.0;
        Cli pilot = compare("--forks", "3", "--rounds", "3", "--slice", "150ms", "--warmup", "300ms", "-c", "1", "-k",
                "A=" + FakeServer.command("echo", tag), "A2=" + FakeServer.command("echo", tag));
        assertThat(pilot.code()).as(pilot.out() + pilot.err()).isZero();
        Matcher median = Pattern.compile("\nA +\\(command\\) +\\d+ +([0-9,]+) ").matcher(pilot.out());
        assertThat(median.find()).as(pilot.out()).isTrue();
        double rate = Double.parseDouble(median.group(1).replace(",", ""));
        // 1/rate per request becomes 1/((1 - slowdown) rate): the work is the difference
        long work = Math.round(1e9 / rate * (1 / (1 - slowdown) - 1));
        Cli run = compare("--until-decided", "--max-time", "60s", "--rounds", "3", "--slice", "150ms", "--warmup", "300ms", "-c", "1",
                "-k", "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("work-" + work, tag));
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).as("work %d ns against %.0f requests/s", work, rate).containsPattern("\nB +rate .* slower by ")
                .containsPattern("interval \\(look \\d+ of a run until decided");
        assertThat(FakeServer.tagged(tag)).isEmpty();
    }

    /**
     * {@code echo-bench compare ARGS} as a child JVM at nice -10, so that the servers it starts
     * run at -10 too: the suite's other test JVMs, at 0, then leave it the cores it asks for, and
     * the control tests that compare decides, not that a saturated machine can be measured (at
     * the suite's own nice, the echo server's 150 ms slices ranged forty-fold and left the
     * slowdown undecided). Without the right to raise a priority, nice says so on stderr and runs it as is.
     */
    private static Cli compare(String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of("nice", "-n", "-10", java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), "niolab.bench.EchoBench", "compare"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("compare", ".out");
        Path err = Files.createTempFile("compare", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            boolean exited = p.waitFor(120, TimeUnit.SECONDS);
            return new Cli(exited ? p.exitValue() : -1, Files.readString(out), (exited ? "" : "still running after 120 s\n") + Files.readString(err));
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly();
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
