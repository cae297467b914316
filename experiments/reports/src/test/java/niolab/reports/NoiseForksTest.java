package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchReport;
import niolab.common.results.ResultsJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-noise 3.7 and 3.8 on runs written here, whose truth is known: the coverage of ordered pairs
 * counted as defined, the cheapest design that meets the target named, slowdowns beyond the
 * threshold called slower, slowdowns inside it not, and A/A runs counted as false alarms only when
 * they call a difference.
 */
class NoiseForksTest {
    @TempDir
    Path dir;

    /**
     * A compare JSON: servers[0] at 1000 req/s; each other server at {@code factor[k]} times it, times
     * the fork's own factor {@code forkLuck[f]} (what a fresh process brings) and a small per-round wobble.
     */
    private static String compare(String[] servers, double[] factor, double[] forkLuck, int rounds) {
        List<BenchComparison.Server> named = new ArrayList<>();
        for (String s : servers) named.add(new BenchComparison.Server(s, "cmd {port}", null, null, true));
        List<BenchComparison.Slice> slices = new ArrayList<>();
        int round = 0;
        for (int f = 0; f < forkLuck.length; f++) {
            for (int r = 0; r < rounds; r++) {
                round++;
                for (int k = 0; k < servers.length; k++) {
                    double wobble = 1 + 0.002 * ((r + k) % 3 - 1);
                    double rate = 1000 * (k == 0 ? 1 : factor[k] * forkLuck[f]) * wobble;
                    slices.add(new BenchComparison.Slice(round, k, servers[k], Math.round(rate), 0, 1.0, rate, null, null, null, false, f + 1));
                }
            }
        }
        BenchReport.Environment env = new BenchReport.Environment("h", 2, "Linux", "k", "amd64", "j", "vm", "2026-12-01T10:00:00Z", "1-2", "2");
        BenchComparison.Config config = new BenchComparison.Config(String.join(" ", servers), "echo-bench", "echo", null, 50, null, true, 1, 0,
                64, rounds, 1.0, 2.0, 1, forkLuck.length, null);
        return ResultsJson.compact(new BenchComparison(BenchReport.TOOL, BenchReport.SCHEMA, BenchComparison.COMMAND, config, env, named,
                slices, new BenchComparison.Summary(List.of(), List.of())));
    }

    private void write(String file, String text) throws IOException {
        Files.writeString(dir.resolve(file), text, StandardCharsets.UTF_8);
    }

    private void settings() throws IOException {
        write("settings.csv", "key,value\ncycles,3\ngap_s,0\nforks,3\nrounds_f1,12\nrounds_fn,6\nslice,1s\nconnections,50\n"
                + "studies,calibration power\nslowdowns,0 5 10\nlt_rate,50000\nnice,-10\nwork_ns,0 1000 2000\nload_before,1.0\nload_after,1.5\n");
    }

    @Test
    void coverageCountsOrderedPairsAndNamesTheCheapestDesignThatMeetsTheTarget() throws IOException {
        settings();
        StringBuilder runs = new StringBuilder("run,finished,seconds,load\n");
        // one fork: each run sees only its own process's luck, a tight interval around it: no run holds another's
        double[] luck = {0.80, 0.70, 0.90};
        for (int c = 1; c <= 3; c++) {
            write("cal-f1-" + c + ".json", compare(new String[] {"lt", "vt"}, new double[] {1, 1}, new double[] {luck[c - 1]}, 12));
            runs.append("cal-f1-").append(c).append(",2026-12-04T16:00:00Z,30,1\n");
        }
        // three forks a run, the same three lucks in each: every run's interval holds every other's estimate
        for (int c = 1; c <= 3; c++) {
            write("cal-f3-" + c + ".json", compare(new String[] {"lt", "vt"}, new double[] {1, 1}, luck, 6));
            runs.append("cal-f3-").append(c).append(",2026-12-04T16:00:00Z,60,1\n");
        }
        write("runs.csv", runs.toString());
        Report out = new Report();
        NoiseForks.generate(new Results(dir), out);
        assertThat(out.values.get("calibration_summary")).contains("| 1 fork of 12 rounds | 3 | 0 of 6 | 0% | 30 |")
                .contains("| 3 forks of 6 rounds | 3 | 6 of 6 | 100% | 60 |");
        assertThat(out.values.get("calibration_verdict")).contains("1 fork of 12 rounds: 0 of 6 ordered pairs (0%), short of the 80% target")
                .contains("3 forks of 6 rounds: 6 of 6 ordered pairs (100%), meeting the 80% target")
                .endsWith("the cheapest design that met it: 3 forks of 6 rounds");
        assertThat(out.values.get("power_case")).isEqualTo("no_runs");
    }

    @Test
    void slowdownsBeyondTheThresholdAreCalledAndAnAaRunOnlyWhenItCallsADifference() throws IOException {
        settings();
        StringBuilder runs = new StringBuilder("run,finished,seconds,load\n");
        double[] steady = {1, 1, 1};
        for (int c = 1; c <= 2; c++) {
            // A/A: the twin and "slow" both the baseline's equal
            write("power-0-" + c + ".json", compare(new String[] {"lt", "lt~aa", "slow"}, new double[] {1, 1, 1}, steady, 6));
            // 5% slower, steady forks: the whole interval lies below 0.98
            write("power-5-" + c + ".json", compare(new String[] {"lt", "lt~aa", "slow"}, new double[] {1, 1, 0.95}, steady, 6));
            runs.append("power-0-").append(c).append(",t,90,1\npower-5-").append(c).append(",t,90,1\n");
        }
        // 10% slower but forks that scatter by ±8%: the interval is too wide to call it
        write("power-10-1.json", compare(new String[] {"lt", "lt~aa", "slow"}, new double[] {1, 1, 0.90}, new double[] {0.84, 1.0, 1.16}, 6));
        runs.append("power-10-1,t,90,1\n");
        write("runs.csv", runs.toString());
        Report out = new Report();
        NoiseForks.generate(new Results(dir), out);
        assertThat(out.values.get("power_case")).isEqualTo("measured");
        assertThat(out.values.get("power_rows")).contains("| 0 (A/A) | 0 | 2 |").contains("0 of 2 called a difference")
                .contains("| 5% | 1000 | 2 | 0.94").contains("2 of 2 called slower").contains("| 10% | 2000 | 1 |")
                .contains("0 of 1 called slower");
        assertThat(out.values.get("power_verdict"))
                .contains("A/A: a false alarm in 0 of 2 runs with a fixed 2% and 0 of 2 by the A/A-floor rule (target: at most 5%; met with the fixed 2%)")
                .contains("a nominal 5% slowdown (measured 5%, median ratio 0.948): called slower in 2 of 2 runs with a fixed 2% and 2 of 2 by the"
                        + " A/A-floor rule (target: at least 90%; met")
                .contains("a nominal 10% slowdown (measured 11%, median ratio 0.890): called slower in 0 of 1 (fixed 2%), 0 of 1 (A/A-floor rule)");
        assertThat(out.values.get("calibration_verdict")).isEqualTo("no calibration run was kept");
    }

    @Test
    void withoutTheStudyTheSectionsSaySoInsteadOfInventingFigures() {
        Report out = new Report();
        NoiseForks.generate(new Results(dir.resolve("absent")), out);
        assertThat(out.values.get("forks_measured")).isEqualTo("false");
        assertThat(out.values.get("power_case")).isEqualTo("no_study");
        assertThat(out.values.get("power_verdict")).isEqualTo("not measured with these results");
    }
}
