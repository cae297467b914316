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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-noise on a tiny run written here: identical servers give an A/A interval around 1, a slot
 * bias shows as two fixed orders apart, and A/B runs whose intervals do not overlap are said to
 * depend on the machine's state.
 */
class NoiseExperimentTest {
    @TempDir
    Path dir;

    @BeforeEach
    void writeRun() throws IOException {
        write("env.json", "{\"date\":\"d\",\"cpu\":\"c\",\"cores\":2,\"memory\":\"m\",\"kernel\":\"k\",\"jdk\":\"j\",\"java_opts\":\"\","
                + "\"server_cpu\":\"0\",\"client_cpu\":\"1\",\"ulimit_n\":\"1024\",\"ip_local_port_range\":\"1 2\",\"tcp_tw_reuse\":\"2\",\"commit\":\"x\"}");
        write("settings.csv", "key,value\nbudget_s,16\nab_runs,3\nab_gap_s,0\nhog_start_s,8\nhog_end_s,24\n");
        write("slice-0.25.json", compare(new String[] {"lt-a", "lt-b"}, 20, 1.0, 1.0));
        // the second slot of each round runs 4% faster, whoever holds it
        write("slice-1.json", compare(new String[] {"lt-a", "lt-b"}, 16, 1.04, 1.0));
        write("slice-4.json", compare(new String[] {"lt-a", "lt-b"}, 4, 1.0, 1.0));
        write("seq-a.json", compare(new String[] {"lt-a"}, 16, 1.0, 1.0));
        write("seq-b.json", compare(new String[] {"lt-b"}, 16, 1.0, 1.0));
        write("hog.json", compare(new String[] {"lt-a", "lt-b"}, 16, 1.0, 1.0));
        write("ab-1.json", compare(new String[] {"lt", "vt"}, 16, 1.0, 0.6));
        write("ab-2.json", compare(new String[] {"lt", "vt"}, 16, 1.0, 0.45));
        write("ab-3.json", compare(new String[] {"lt", "vt"}, 16, 1.0, 0.6));
    }

    /**
     * A compare JSON of {@code rounds} rounds: A runs at 1000 req/s times a round's own factor (the
     * machine's drift); the second slot of each round gets {@code secondSlot}; the order alternates;
     * B's rate is A's times {@code bOverA}.
     */
    private static String compare(String[] servers, int rounds, double secondSlot, double bOverA) {
        List<BenchComparison.Server> named = new ArrayList<>();
        for (String s : servers) named.add(new BenchComparison.Server(s, "127.0.0.1:1", null, null));
        List<BenchComparison.Slice> slices = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            double drift = 1 + 0.3 * Math.sin(round);
            for (int position = 0; position < servers.length; position++) {
                int s = servers.length == 1 ? 0 : (round + position) % 2;
                double rate = 1000 * drift * (position == 1 ? secondSlot : 1) * (s == 1 ? bOverA : 1);
                slices.add(new BenchComparison.Slice(round, position, servers[s], Math.round(rate), 0, 1.0, rate, null, null, null, false));
            }
        }
        BenchReport.Environment env = new BenchReport.Environment("h", 2, "Linux", "k", "amd64", "j", "vm", "2026-12-01T10:00:00Z", "1-2", "2");
        BenchComparison.Config config = new BenchComparison.Config(String.join(" ", servers), "echo-bench", "echo", null, 50, null, true, 1, 0,
                64, rounds, 1.0, 2.0, 1);
        return ResultsJson.compact(new BenchComparison(BenchReport.TOOL, BenchReport.SCHEMA, BenchComparison.COMMAND, config, env, named,
                slices, new BenchComparison.Summary(List.of(), List.of())));
    }

    private void write(String file, String text) throws IOException {
        Files.writeString(dir.resolve(file), text, StandardCharsets.UTF_8);
    }

    @Test
    void identicalServersGiveAnIntervalAroundOne() throws IOException {
        Report out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        assertThat(out.values.get("slice_table")).contains("| 0.25 s | 20 (all) | 1.000 | [1.000, 1.000] | 0.0% | contains 1 |")
                .contains("| 4 s | 4 (all; fewer than 6) |");
        String md = rendered(out);
        assertThat(md).contains("without it, and still contains 1: no false difference");
        // the 4 s run has 4 rounds: too few to count as the narrowest
        assertThat(md).contains("the narrowest A/A interval came with 0.25 s slices");
    }

    @Test
    void aSlotBiasShowsAsTwoFixedOrdersApart() throws IOException {
        Report out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        assertThat(out.values.get("order_table")).contains("| A first (what a fixed order A, B gives) | 1.040 |")
                .contains("| B first (a fixed order B, A) | 0.962 |");
        assertThat(rendered(out)).contains("**Order:** the two fixed orders give intervals that do not overlap");
    }

    @Test
    void runsThatDisagreeBeyondTheirIntervalsAreSaidToDependOnTheMachine() throws IOException {
        Report out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        assertThat(out.values.get("ab_pair")).isEqualTo("vt against lt");
        assertThat(rendered(out)).contains(": some runs' intervals do not overlap: the ratio depends on the machine's state, and over these 3 runs"
                + " it ranged from 0.450 to 0.600;");
    }

    @Test
    void aRunStartedItsSlicesAndWarmUpsBeforeTheTimeItRecorded() {
        Report out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        // written at 10:00:00 after 16 rounds of two 1 s slices and two 2 s warm-ups: started 36 s before
        assertThat(out.values.get("ab_table")).contains("| 1 | 2026-12-01T09:59:24Z | ");
        // no separate floor: the run's own 1 s A/A is its floor
        assertThat(out.values.get("env")).contains("A/A check | `lt against lt").contains("(this run's own A/A, slice-1.json)");
    }

    @Test
    void theGapsSayWhatRanInThem() throws IOException {
        Report out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        assertThat(rendered(out)).contains("\n  The gaps between them were not recorded.\n");
        write("gaps.csv", "gap,work,work_s,slept_s\n1,make exp-http,300,420\n2,,0,720\n");
        out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        assertThat(rendered(out)).contains("(gap 1: `make exp-http` for 300 s), the rest of each gap idle.").doesNotContain("gap 2");
    }

    @Test
    void repeatedAaComparisonsUnderAHogAreCountedWhereARunKeptThem() throws IOException {
        Report out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        assertThat(rendered(out)).contains("| 6 | Repeated A/A under a CPU hog: not measured with these results |");
        Path hog = Files.createDirectory(dir.resolve("hog-repeats"));
        Files.copy(dir.resolve("env.json"), hog.resolve("env.json"));
        Files.writeString(hog.resolve("settings.csv"), "key,value\nrepeats,20\nrounds,16\nslice,1s\nload_before,0.5\nload_after,1.9\n");
        // 20 comparisons: two with lt-b 3% slower in every round (each interval excludes 1), the rest identical
        for (int n = 1; n <= 20; n++) {
            Files.writeString(hog.resolve("aa-" + n + ".json"), compare(new String[] {"lt-a", "lt-b"}, 16, 1.0, n <= 2 ? 0.97 : 1.0));
        }
        out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        String md = rendered(out);
        assertThat(md).contains("load average 0.5 before, 1.9 after").contains("| 1 | 16 | 0.970 | [0.970, 0.970] | lt-b slower |")
                .contains("| 20 | 16 | 1.000 | [1.000, 1.000] | no difference |");
        // P(X >= 2) for X ~ Binomial(20, 0.05) = 1 - 0.95^20 - 20 * 0.05 * 0.95^19 = 26.4%
        assertThat(md).contains("| 6 | Repeated A/A under a CPU hog: 2 of 20 comparisons of identical servers called a difference (the lab's"
                + " bound: at most 2 of 20; met); with intervals that err exactly 1 time in 20, 2 or more would err in 26.4% of such runs |");
        Files.writeString(hog.resolve("aa-3.json"), compare(new String[] {"lt-a", "lt-b"}, 16, 1.0, 1.05));
        out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        assertThat(rendered(out)).contains("| 6 | Repeated A/A under a CPU hog: 3 of 20 comparisons").contains("at most 2 of 20; not met)");
        for (int n = 1; n <= 3; n++) {
            Files.writeString(hog.resolve("aa-" + n + ".json"), compare(new String[] {"lt-a", "lt-b"}, 16, 1.0, 1.0));
        }
        out = new Report();
        new NoiseExperiment().generate(new Results(dir), out);
        // 0.95^20 = 35.8%
        assertThat(rendered(out)).contains("| 6 | Repeated A/A under a CPU hog: 0 of 20 comparisons").contains("none would err in 35.8% of such runs |");
    }

    /** The report as {@code make reports} writes it from these values and the committed template. */
    private String rendered(Report out) throws IOException {
        out.put("env", new Results(dir).environment(NoiseExperiment.THRESHOLD));
        return out.fill(Files.readString(Path.of("..", "templates", "exp-noise.md"), StandardCharsets.UTF_8), "templates/exp-noise.md");
    }

    @Test
    void everyPlaceholderOfTheTemplateIsFilled() throws IOException {
        Report out = new Report();
        out.put("env", new Results(dir).environment(NoiseExperiment.THRESHOLD));
        new NoiseExperiment().generate(new Results(dir), out);
        String template = Files.readString(Path.of("..", "templates", "exp-noise.md"), StandardCharsets.UTF_8);
        assertThat(out.fill(template, "templates/exp-noise.md")).doesNotContain("{{").contains("## 6. The answer");
        assertThat(out.charts).containsOnlyKeys("noise-width-by-slice.svg", "noise-ab-runs.svg");
    }
}
