package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.common.results.BenchComparison;
import niolab.common.stats.MedianInterval;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-architectures reads its numbers from the compare runs as they are: each round's slice,
 * ratios paired by round, directions only where an interval excludes 1, context switches and
 * errors over the slices' requests, the claims following the figures, and a server a run did not
 * measure said as such; a run of the sequential design is refused in one line.
 */
class ArchitecturesExperimentTest {
    @TempDir
    Path dir;

    @Test
    void switchesAndErrorsComeFromTheProcSamplesAndTheSlices() {
        Results r = new Results(COMPARE_RUN);
        ArchitecturesRun run = new ArchitecturesRun(r);
        BenchComparison json = r.json("compare-ping-keepalive.json", BenchComparison.class);
        double requests = 0;
        long errors = 0;
        for (BenchComparison.Slice s : json.slices()) {
            if (s.server().equals("lt")) {
                requests += s.requests();
                errors += s.errors();
            }
        }
        var row = r.csv("proc.csv").row("server", "lt", "measure", "ping-keepalive");
        assertThat(run.switches("lt", "ping-keepalive")).isEqualTo((Csv.number(row.get("voluntary")) + Csv.number(row.get("nonvoluntary"))) / requests);
        assertThat(run.errors("lt", "ping-keepalive")).isEqualTo(errors);
        assertThat(run.label("c")).isEqualTo("C reference");
    }

    @Test
    void claimsFollowTheFigures() {
        ArchitecturesRun run = new ArchitecturesRun(new Results(COMPARE_RUN));
        Report out = new Report();
        Claim.report(ArchitecturesExperiment.claims(run), "measured", out);
        String table = out.values.get("claims_table");
        Claim cpu = Claim.atMost("x", run.cpuDesign("lt", "c", "ping-keepalive"), 8, 1.1);
        assertThat(table).contains("| keep-alive /ping: lt spends at most 1.1× the C reference's server CPU per request | "
                + Md.fit(cpu.measured(), cpu.measured().estimate()) + " | " + cpu.interval() + " | 8 | " + cpu.bound() + " | " + cpu.words() + " |");
        // RSS is measured once: no interval, so no verdict either way
        assertThat(table).contains("| lt holds 2000 idle connections in under 100 MB of RSS (MB) | " + Md.f2(run.rssMb("lt"))
                + " | none (1 round) | 1 | ≤ 100.00 | undecided, with too few rounds for an interval (1; an interval takes 6) |");
    }

    @Test
    void aComparisonWithAServerTheRunDidNotMeasureSaysSo() {
        ArchitecturesRun run = new ArchitecturesRun(new Results(COMPARE_RUN));
        ArchitecturesExperiment.Versus vt = ArchitecturesExperiment.versus(run, "vt", "lt", "ping-keepalive");
        assertThat(vt.presence()).isEqualTo(ArchitecturesExperiment.Presence.NOT_MEASURED);
        assertThat(ArchitecturesExperiment.versus(run, vt)).isEqualTo("(Keep-alive /ping: vt or lt not measured on this run.)");
        ArchitecturesExperiment.Versus c = ArchitecturesExperiment.versus(run, "lt", "c", "ping-keepalive");
        assertThat(c.presence()).isEqualTo(ArchitecturesExperiment.Presence.MEASURED);
        assertThat(c.rate()).isEqualTo(run.rateRatio("lt", "c", "ping-keepalive"));
        assertThat(ArchitecturesExperiment.versus(run, c))
                .startsWith("Keep-alive /ping: lt " + Md.f0(run.rate("lt", "ping-keepalive")) + " req/s")
                .endsWith("lt against C reference, paired by round: rate "
                        + ArchitecturesExperiment.ratioWords(run.rateRatio("lt", "c", "ping-keepalive"), niolab.common.stats.Comparison.Quantity.RATE, run.threshold)
                        + ", CPU per request "
                        + ArchitecturesExperiment.ratioWords(run.cpuRatio("lt", "c", "ping-keepalive"), niolab.common.stats.Comparison.Quantity.COST, run.threshold) + ".");
    }

    @Test
    void aRunOfTheSequentialDesignIsRefusedInOneLine() throws IOException {
        Files.writeString(dir.resolve("settings.csv"), "key,value\nrounds,3\nlevels,50\nservers,lt c\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("env.json"), Files.readString(COMPARE_RUN.resolve("env.json")), StandardCharsets.UTF_8);
        for (String f : new String[] {"ready.csv", "idle.csv", "proc.csv"}) Files.copy(COMPARE_RUN.resolve(f), dir.resolve(f));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ArchitecturesRun(new Results(dir)))
                .hasMessageContaining("sequential design").hasMessageContaining("rerun make exp-architectures");
    }

    @Test
    void analyseFindsTheCoresTheClaimsAndTheFastestFromTheRun() {
        // the smoke run: lt, et and c on a 2-core machine, so the server had one core and its loops share it
        ArchitecturesRun run = new ArchitecturesRun(new Results(COMPARE_RUN));
        ArchitecturesExperiment.Findings f = ArchitecturesExperiment.analyse(new ArchitecturesExperiment.Data(run, java.util.Map.of()));
        assertThat(f.serverCores()).isEqualTo(run.cores / 2);
        assertThat(f.scales()).isEqualTo(run.cores >= 4);
        // the event loops are the catalog's architectures that take --loops and ran: lt and et, not c
        assertThat(ArchitecturesExperiment.eventLoops(run)).containsExactly("lt", "et");
        assertThat(f.claims()).extracting(Claim::statement).anyMatch(n -> n.startsWith("keep-alive /ping: et spends at most 1.1×"))
                .noneMatch(n -> n.contains(": c spends"));
        assertThat(f.vtAt().presence()).isEqualTo(ArchitecturesExperiment.Presence.NOT_MEASURED);
        assertThat(f.vtMemory().measured()).isFalse();
        // the fastest pipelined server has the highest median rate of the three
        String first = f.pipeline().first();
        for (String s : run.servers) assertThat(run.rate(first, ArchitecturesExperiment.PIPELINE)).isGreaterThanOrEqualTo(run.rate(s, ArchitecturesExperiment.PIPELINE));
        assertThat(f.pipeline().ratio()).isEqualTo(run.rateRatio(first, f.pipeline().second(), ArchitecturesExperiment.PIPELINE));
    }

    /** A smoke run of the compare design (lt, et, c; 8 rounds of 1 s slices), kept as it came. */
    private static final Path COMPARE_RUN = Path.of("src", "test", "resources", "architectures-compare");

    @Test
    void theCompareDesignTakesEachRoundsSliceAndPairsTheServersByRound() {
        Results r = new Results(COMPARE_RUN);
        ArchitecturesRun run = new ArchitecturesRun(r);
        BenchComparison json = r.json("compare-echo-ka-50.json", BenchComparison.class);
        double[] lt = new double[json.config().rounds()], et = new double[lt.length];
        for (BenchComparison.Slice s : json.slices()) {
            if (s.server().equals("lt")) lt[s.round() - 1] = s.rate();
            if (s.server().equals("et")) et[s.round() - 1] = s.rate();
        }
        assertThat(run.rounds("echo-ka-50")).isEqualTo(8);
        assertThat(run.rates("et", "echo-ka-50")).containsExactly(et);
        assertThat(run.rate("lt", "echo-ka-50")).isEqualTo(Stats.median(lt));
        assertThat(run.rateRatio("et", "lt", "echo-ka-50")).isEqualTo(MedianInterval.medianOfRatios(et, lt));
    }

    @Test
    void aRoundWithoutBothServersIsLeftOutOfTheirRatio() {
        double[] a = {2, 4, Double.NaN, 8}, b = {1, 2, 3, Double.NaN};
        assertThat(ArchitecturesRun.pairedRounds(a, b)).isEqualTo(2);
        assertThat(ArchitecturesRun.paired(a, b).ratio()).isEqualTo(MedianInterval.medianOfRatios(new double[] {2, 4}, new double[] {1, 2}));
        assertThat(ArchitecturesRun.paired(new double[] {1, Double.NaN}, new double[] {1, 1})).isNull();
    }

    @Test
    void everyRatioCellSaysTheDirectionItsIntervalAllows() {
        ArchitecturesRun run = new ArchitecturesRun(new Results(COMPARE_RUN));
        Report out = new Report();
        ArchitecturesExperiment.ratioTables(run, out);
        Claim.report(ArchitecturesExperiment.claims(run), "measured", out);
        Pattern cell = Pattern.compile("(\\d+\\.\\d{2,4})× \\[(\\d+\\.\\d{2,4}), (\\d+\\.\\d{2,4})\\] (faster|slower|costlier|cheaper|the same|undecided)");
        int cells = 0;
        for (String table : new String[] {out.values.get("rate_ratio_table"), out.values.get("cpu_ratio_table")}) {
            Matcher m = cell.matcher(table);
            while (m.find()) {
                cells++;
                double low = Double.parseDouble(m.group(2)), high = Double.parseDouble(m.group(3));
                double t = run.threshold;
                // the verdict against the run's threshold, from the printed edges (shown with the digits that decide)
                String expected = low > 1 + t ? "above" : high < 1 - t ? "below" : low >= 1 - t && high <= 1 + t ? "same" : "undecided";
                String said = switch (m.group(4)) {
                    case "faster", "costlier" -> "above";
                    case "slower", "cheaper" -> "below";
                    case "the same" -> "same";
                    default -> "undecided";
                };
                assertThat(said).as(m.group()).isEqualTo(expected);
            }
        }
        // et and c against lt, in 3 echo levels, short connections and 2 /ping measures, for rate and CPU
        assertThat(cells).isEqualTo(2 * 2 * 6);
        assertThat(out.values.get("claims_table")).contains("| 8 |");
        assertThat(ArchitecturesExperiment.fastest(run, ArchitecturesExperiment.fastest(run, ArchitecturesExperiment.PIPELINE)))
                .contains("against the next");
    }

    @Test
    void theMemorySentencesCaseIsTheSignOfTheDifference() {
        assertThat(ArchitecturesExperiment.memoryCase(69.7)).isEqualTo("more");
        assertThat(ArchitecturesExperiment.memoryCase(0)).isEqualTo("more");
        assertThat(ArchitecturesExperiment.memoryCase(-3.2)).isEqualTo("less");
    }
}
