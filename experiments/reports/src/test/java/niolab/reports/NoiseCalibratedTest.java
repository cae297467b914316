package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchReport;
import niolab.common.results.ResultsJson;
import niolab.common.stats.Comparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-noise 3.9 on hand-made runs whose verdicts are known: an A/A run 10% apart is the one false
 * call of three, two runs at 0.95 are both called slower, vt runs at 0.75, 0.75 and 0.60 hold each
 * other's estimate in 2 of 6 ordered pairs; and without the folder the section says it was not yet run.
 */
class NoiseCalibratedTest {
    private static final Path TEMPLATES = Path.of("..", "templates");

    @TempDir
    Path dir;

    @Test
    void wilsonIntervalMatchesItsFormulaAtTheEdges() {
        // 0 of 20: [0, z²/(n+z²)] = [0, 0.161]; 1 of 20: [0.0089, 0.2361] (the textbook values)
        assertThat(NoiseCalibrated.wilson(0, 20)[0]).isEqualTo(0.0);
        assertThat(NoiseCalibrated.wilson(0, 20)[1]).isCloseTo(0.1611, within(1e-4));
        assertThat(NoiseCalibrated.wilson(1, 20)[0]).isCloseTo(0.0089, within(1e-4));
        assertThat(NoiseCalibrated.wilson(1, 20)[1]).isCloseTo(0.2361, within(1e-4));
        assertThat(NoiseCalibrated.wilson(10, 10)[1]).isEqualTo(1.0);
    }

    @Test
    void anAaRunCallsEitherWayASlowdownOnlySlower() {
        assertThat(NoiseCalibrated.isCalled(Comparison.Verdict.ABOVE, true)).isTrue();
        assertThat(NoiseCalibrated.isCalled(Comparison.Verdict.ABOVE, false)).isFalse();
        assertThat(NoiseCalibrated.isCalled(Comparison.Verdict.BELOW, false)).isTrue();
        assertThat(NoiseCalibrated.isCalled(Comparison.Verdict.SAME, true)).isFalse();
        assertThat(NoiseCalibrated.isCalled(Comparison.Verdict.UNDECIDED, true)).isFalse();
    }

    @Test
    void aCalibrationOutsideItsToleranceSaysWhatTheRunsTest() {
        assertThat(NoiseCalibrated.workMet(0.959, 0.95, 0.01)).isTrue();
        assertThat(NoiseCalibrated.workMet(0.94, 0.95, 0.01)).isTrue();
        assertThat(NoiseCalibrated.workMet(0.97, 0.95, 0.01)).isFalse();
    }

    @Test
    void withoutTheFolderTheSectionSaysNotYetRun() {
        Report out = new Report();
        NoiseCalibrated.generate(new Results(dir.resolve("absent")), TEMPLATES, out);
        assertThat(out.values.get("calibrated_run")).isEqualTo("false");
        assertThat(out.values).doesNotContainKeys("calibrated", "calibrated_aa");
    }

    @Test
    void sharesCoverageAndTimesComeFromTheRuns() throws IOException {
        Path c = Files.createDirectories(dir.resolve("calibrated"));
        write(c, "env.json", "{\"date\":\"d\",\"cpu\":\"c\",\"cores\":2,\"memory\":\"m\",\"kernel\":\"k\",\"jdk\":\"j\",\"java_opts\":\"\","
                + "\"server_cpu\":\"0\",\"client_cpu\":\"1\",\"ulimit_n\":\"1024\",\"ip_local_port_range\":\"1 2\",\"tcp_tw_reuse\":\"2\",\"commit\":\"x\"}");
        write(c, "settings.csv", "key,value\nforks,3\nrounds,3\nslice,0.5s\nwarmup,1s\nconnections,50\nmax_time,60s\ntarget_ratio,0.95\n"
                + "tolerance,0.01\nwork_ns,260\nwork_ratio,0.951\nload_before,0.10\nload_after,0.20\nnice,0\nfork_gap,30s\n");
        write(c, "calibration.csv", "step,work_ns,ratio\n1,250,0.962\n2,260,0.951\n");
        write(c, "runs.csv", "run,kind,finished,seconds,load\nuntil-1,until,t,41.5,0.1\n");
        write(c, "aa-1.json", compare("lt-a", "lt-b", 1.0, false));
        write(c, "aa-2.json", compare("lt-a", "lt-b", 1.0, false));
        write(c, "aa-3.json", compare("lt-a", "lt-b", 1.10, true));
        write(c, "slow-1.json", compare("lt", "slow", 0.95, false));
        write(c, "slow-2.json", compare("lt", "slow", 0.95, false));
        write(c, "vt-1.json", compare("lt", "vt", 0.75, false));
        write(c, "vt-2.json", compare("lt", "vt", 0.75, false));
        write(c, "vt-3.json", compare("lt", "vt", 0.60, false));
        write(c, "until-1.json", until());
        Report out = new Report();
        NoiseCalibrated.generate(new Results(c), TEMPLATES, out);
        String section = out.values.get("calibrated");
        assertThat(section).doesNotContain("{{")
                .contains("1 of 3 runs called a difference (33.3%, 95% Wilson interval 6.1% to 79.2%; target: at most 5%, not met)")
                .contains("2 of 2 runs called slower (100.0%, 95% Wilson interval 34.2% to 100.0%; target: at least 90%, undecided at 2 runs); their median ratio 0.950")
                .contains("held another run's estimate in 2 of 6 ordered pairs (33%; target: at least 80%, not met)")
                .contains("W = 260 ns, measured 0.951, within the tolerance.").contains("a pause of\n30s between forks")
                .contains("| until-1 | 41.5 | 2 | 5 | 0.951 [0.940, 0.962] | below |")
                // one slice of aa-3's 18 disturbed, of 8 runs' 144 slices
                .contains("interference: 1 of 144 slices disturbed (0.7%)");
        assertThat(out.values.get("calibrated_aa")).startsWith("1 of 3 runs called a difference");
        assertThat(out.values.get("calibrated_until")).isEqualTo("1 of 1 runs called slower, in a median of 42 s (the longest 42 s)");
    }

    @Test
    void theEnvironmentBlockGetsAnInterferenceRowOnlyWhereTheResultsCarryIt() throws IOException {
        write(dir, "env.json", "{\"date\":\"d\",\"cpu\":\"c\",\"cores\":2,\"memory\":\"m\",\"kernel\":\"k\",\"jdk\":\"j\",\"java_opts\":\"\","
                + "\"server_cpu\":\"0\",\"client_cpu\":\"1\",\"ulimit_n\":\"1024\",\"ip_local_port_range\":\"1 2\",\"tcp_tw_reuse\":\"2\",\"commit\":\"x\"}");
        assertThat(new Results(dir).environment(Threshold.DEFAULT)).doesNotContain("interference");
        write(dir, "run.json", compare("lt-a", "lt-b", 1.0, true));
        assertThat(new Results(dir).environment(Threshold.DEFAULT))
                .contains("| interference | `1 of 18 slices disturbed (5.6%); other processes' median share of the measured cores 1.0%` |");
    }

    /**
     * A compare run in 3 forks of 3 rounds: the baseline at 1000 req/s with a round's drift, B at
     * {@code ratio} times it, a per-fork wobble of 0.1%; every slice with the interference guard's
     * reading, 1% of the cores, and with {@code oneDisturbed} the first slice at 20%, disturbed.
     */
    private static String compare(String a, String b, double ratio, boolean oneDisturbed) {
        List<BenchComparison.Slice> slices = new ArrayList<>();
        int round = 0;
        for (int fork = 1; fork <= 3; fork++) {
            for (int k = 0; k < 3; k++) {
                round++;
                double drift = 1 + 0.2 * Math.sin(round);
                for (int position = 0; position < 2; position++) {
                    boolean isB = (round + position) % 2 == 1;
                    double rate = 1000 * drift * (isB ? ratio * (1 + 0.001 * (fork - 2)) : 1);
                    boolean disturbed = oneDisturbed && slices.isEmpty();
                    BenchComparison.SliceRulers rulers = new BenchComparison.SliceRulers(1L, 1L, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, false, "0,1",
                            disturbed ? 0.2 : 0.01, 0.1, disturbed);
                    slices.add(new BenchComparison.Slice(round, position, isB ? b : a, Math.round(rate), 0, 1.0, rate, null, null, null, false,
                            fork, rulers));
                }
            }
        }
        return json(List.of(a, b), slices, new BenchComparison.Summary(List.of(), List.of()));
    }

    /** A run until decided as compare writes it: 2 looks, 5 forks, its last look's ratio called below. */
    private static String until() {
        BenchComparison.Ratio rate = new BenchComparison.Ratio(30, 0.951, 0.940, 0.962, "below", "slower", "below", 0.02, null, 5, 0.1, 0.03);
        BenchComparison.Summary summary = new BenchComparison.Summary(List.of(), List.of(new BenchComparison.Comparison("slow", "lt", rate, null, null)),
                5, "t", null, null, 0.02, "--threshold", 0.99, 2);
        return json(List.of("lt", "slow"), List.of(), summary);
    }

    private static String json(List<String> names, List<BenchComparison.Slice> slices, BenchComparison.Summary summary) {
        List<BenchComparison.Server> servers = new ArrayList<>();
        for (String s : names) servers.add(new BenchComparison.Server(s, "cmd {port}", null, null, true));
        BenchReport.Environment env = new BenchReport.Environment("h", 2, "Linux", "k", "amd64", "j", "vm", "2026-12-01T10:00:00Z", "1-2", "2");
        BenchComparison.Config config = new BenchComparison.Config(String.join(" ", names), "echo-bench", "echo", null, 50, null, true, 1, 0,
                64, 3, 0.5, 1.0, 1, 3, 0.02);
        return ResultsJson.compact(new BenchComparison(BenchReport.TOOL, BenchReport.SCHEMA, BenchComparison.COMMAND, config, env, servers,
                slices, summary));
    }

    private static void write(Path in, String file, String text) throws IOException {
        Files.writeString(in.resolve(file), text, StandardCharsets.UTF_8);
    }
}
