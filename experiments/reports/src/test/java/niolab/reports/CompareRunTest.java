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
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment's compare run read back: ratios paired by round between any two servers (not
 * only against the baseline), refused slices left out, and a table whose verdicts follow the
 * intervals.
 */
class CompareRunTest {
    @TempDir
    Path dir;

    /** Rates per server as a multiple of the baseline's; CPU per request as its inverse. */
    private static final String[] SERVERS = {"et", "same", "faster", "slower"};
    private static final double[] FACTOR = {1.0, 1.0, 1.2, 0.5};

    @BeforeEach
    void writeRun() throws IOException {
        List<BenchComparison.Server> named = new ArrayList<>();
        for (String s : SERVERS) named.add(new BenchComparison.Server(s, "127.0.0.1:1", 1L, null));
        List<BenchComparison.Slice> slices = new ArrayList<>();
        for (int round = 1; round <= 12; round++) {
            // the machine drifts by up to 40% between rounds: pairing by round cancels it
            double drift = 1 + 0.4 * Math.sin(round);
            for (int s = 0; s < SERVERS.length; s++) {
                double rate = 1000 * drift * FACTOR[s];
                boolean refused = s == 3 && round == 5;
                slices.add(new BenchComparison.Slice(round, (round + s) % SERVERS.length, SERVERS[s], Math.round(rate), 0, 1.0,
                        refused ? null : rate, 50.0, 100.0, 10 / FACTOR[s], refused));
            }
        }
        List<BenchComparison.ServerSummary> summaries = new ArrayList<>();
        for (int s = 0; s < SERVERS.length; s++) {
            double rate = 1000 * FACTOR[s];
            summaries.add(new BenchComparison.ServerSummary(SERVERS[s], 12, 0, rate, rate * 0.6, rate * 1.4, rate * 0.8, rate * 1.2,
                    10 / FACTOR[s], 100.0));
        }
        BenchReport.Environment env = new BenchReport.Environment("h", 2, "Linux", "k", "amd64", "j", "vm", "2026-12-01T10:00:00Z", "1-2", "2");
        BenchComparison.Config config = new BenchComparison.Config(String.join(" ", SERVERS), "echo-bench", "echo", null, 50, 1, true, 1, 0,
                64, 12, 1.0, 2.0, 7);
        Files.writeString(dir.resolve("compare-echo-50.json"), ResultsJson.compact(new BenchComparison(BenchReport.TOOL, BenchReport.SCHEMA,
                BenchComparison.COMMAND, config, env, named, slices, new BenchComparison.Summary(summaries, List.of()))),
                StandardCharsets.UTF_8);
    }

    @Test
    void pairsAnyTwoServersByRound() {
        CompareRun run = CompareRun.of(new Results(dir), "compare-echo-50.json", Threshold.DEFAULT);
        Interval faster = run.ratio("faster", "et", CompareRun.RATE);
        assertThat(faster.low()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(faster.high()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-3));
        // two servers neither of which is the baseline
        assertThat(run.ratio("slower", "faster", CompareRun.RATE).estimate()).isCloseTo(0.5 / 1.2, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(run.ratio("faster", "et", CompareRun.CPU).high()).isLessThan(1);
        assertThat(run.rounds("faster", "et")).isEqualTo(12);
        // the refused slice pairs with nothing
        assertThat(run.rounds("slower", "et")).isEqualTo(11);
        assertThat(run.has("missing")).isFalse();
        assertThat(run.ratio("missing", "et", CompareRun.RATE)).isNull();
    }

    @Test
    void tableSaysWhatEachIntervalResolves() {
        CompareRun run = CompareRun.of(new Results(dir), "compare-echo-50.json", Threshold.DEFAULT);
        String table = run.table();
        assertThat(table).contains("| et | 1000 |").contains("baseline")
                .contains("| same | 1000 |").contains("the same within ±2.0%")
                .contains("faster by 20.0%").contains("slower by 50.0%").contains("cheaper by");
        assertThat(run.design()).isEqualTo("12 rounds of 1.00 s slices, each round in a fresh random order (seed 7)");
    }

    @Test
    void pairsInSeveralForksGetTheForkLevelIntervalAndOneForkTheRoundsOwn() {
        // two forks whose processes differ by 20%: rounds within a fork agree, so only the forks carry the spread
        double[] numer = {100, 101, 99, 100, 120, 121, 119, 120}, denom = {100, 100, 100, 100, 100, 100, 100, 100};
        ForkInterval forked = CompareRun.forkLevel(numer, denom, new int[] {1, 1, 1, 1, 2, 2, 2, 2});
        assertThat(forked.forks()).isEqualTo(2);
        assertThat(forked.ratio().low()).as("two forks 20% apart: the interval spans both").isLessThan(1.0);
        assertThat(forked.ratio().high()).isGreaterThan(1.2);
        ForkInterval pooled = CompareRun.forkLevel(numer, denom, new int[8]);
        assertThat(pooled.forks()).isEqualTo(1);
        assertThat(pooled.ratio()).isEqualTo(Claim.ratio(numer, denom));
        // a zero (no CPU tick in a slice) has no log: left out of the forks, never an error
        double[] withZero = {0, 101, 99, 100, 120, 121, 119, 120};
        assertThat(CompareRun.forkLevel(withZero, denom, new int[] {1, 1, 1, 1, 2, 2, 2, 2}).forks()).isEqualTo(2);
    }
}
