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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-architectures reads its numbers from the raw files as they are: in the older design wrk's
 * rate and /proc's ticks and context switches per request, medians over the rounds, the ratio to
 * C, the claims following the figures, and a level that served nothing shown as such; in the
 * compare design each round's slice, ratios paired by round, and directions only where an
 * interval excludes 1.
 */
class ArchitecturesExperimentTest {
    @TempDir
    Path dir;

    private Results results;

    @BeforeEach
    void writeRun() throws IOException {
        write("settings.csv", "key,value\nduration,1s\nc10k_duration,8s\nrounds,3\nwarmup,1s\neb_warmup,1s\nlevels,50\n"
                + "idle_connections,10000\nconnections,50\ndepth,16\nloops,2\nclient_threads,1\nservers,lt c\nbacklog,4096\nnofile,20000\n");
        write("env.json", "{\"date\":\"d\",\"cpu\":\"c\",\"cores\":2,\"memory\":\"m\",\"kernel\":\"k\",\"jdk\":\"j\",\"java_opts\":\"\","
                + "\"server_cpu\":\"0\",\"client_cpu\":\"1\",\"ulimit_n\":\"20000\",\"ip_local_port_range\":\"1 2\",\"tcp_tw_reuse\":\"2\",\"commit\":\"x\"}");
        write("ready.csv", "server,round,ready_ms\nlt,1,300\nlt,2,500\nlt,3,400\nc,1,2\nc,2,3\nc,3,4\n");
        write("idle.csv", "server,connections,failed,rss_kb\nlt,10000,0," + 120 * 1024 + "\nc,10000,0,4096\n");
        // lt: 10 ticks (100 ms) over 10,000 requests = 10 µs each; C: 8 µs; rounds 2 and 3 the same
        StringBuilder proc = new StringBuilder("server,measure,round,cpu_ticks,voluntary,nonvoluntary\n");
        StringBuilder wrk = new StringBuilder("server,measure,round,requests,requests_per_s,errors\n");
        for (int round = 1; round <= 3; round++) {
            for (String m : new String[] {"ping-keepalive", "ping-pipeline"}) {
                proc.append("lt,").append(m).append(',').append(round).append(",10,500,0\n");
                proc.append("c,").append(m).append(',').append(round).append(",8,100,0\n");
                wrk.append("lt,").append(m).append(',').append(round).append(",10000,").append(9000 + round * 1000).append(",0\n");
                wrk.append("c,").append(m).append(',').append(round).append(",10000,20000,").append(round == 2 ? 3 : 0).append('\n');
            }
        }
        write("proc.csv", proc.toString());
        write("wrk.csv", wrk.toString());
        results = new Results(dir);
    }

    private void write(String file, String text) throws IOException {
        Files.writeString(dir.resolve(file), text, StandardCharsets.UTF_8);
    }

    @Test
    void wrkMeasuresComeFromTicksAndSwitchesOverRequests() {
        ArchitecturesExperiment.Run run = new ArchitecturesExperiment.Run(results);
        assertThat(run.rate("lt", "ping-keepalive")).isEqualTo(11000);
        assertThat(run.cpu("lt", "ping-keepalive")).isEqualTo(10.0);
        assertThat(run.cpuRatio("lt", "c", "ping-keepalive").estimate()).isEqualTo(1.25);
        assertThat(run.switches("lt", "ping-keepalive")).isEqualTo(0.05);
        assertThat(run.errors("c", "ping-keepalive")).isEqualTo(3);
        assertThat(run.label("c")).isEqualTo("C reference");
    }

    @Test
    void claimsFollowTheFigures() {
        ArchitecturesExperiment.Run run = new ArchitecturesExperiment.Run(results);
        Report out = new Report();
        ArchitecturesExperiment.claims(run, out);
        String table = out.values.get("claims_table");
        // every round has lt at 1.25× C's CPU: an interval of one point, wholly above the bound
        assertThat(table).contains("| keep-alive /ping: lt spends at most 1.1× the C reference's server CPU per request | 1.25 | [1.25, 1.25] | 3 | ≤ 1.10 | fails |");
        // RSS is measured once: no interval, so no verdict either way
        assertThat(table).contains("| lt holds 10000 idle connections in under 100 MB of RSS (MB) | 120.00 | none (1 round) | 1 | ≤ 100.00 | undecided at this run's precision |");
        assertThat(out.values.get("claims_held")).isEqualTo("0 of 2");
        assertThat(out.values.get("claims_summary")).isEqualTo("Of the lab's 2 claims checked on this run, 0 hold, 1 fails and 1 is undecided at this run's precision");
    }

    @Test
    void aComparisonWithAServerThatServedNothingSaysSo() {
        ArchitecturesExperiment.Run run = new ArchitecturesExperiment.Run(results);
        assertThat(ArchitecturesExperiment.versus(run, "vt", "lt", "ping-keepalive", "keep-alive /ping"))
                .isEqualTo("(keep-alive /ping: vt or lt not measured on this run.)");
        assertThat(ArchitecturesExperiment.versus(run, "lt", "c", "ping-keepalive", "keep-alive /ping"))
                .startsWith("keep-alive /ping: lt 11000 req/s, 10.00 µs CPU and 0.050 context switches per request; C reference 20000 req/s")
                // the rounds' rate ratios 0.50, 0.55, 0.60 lie wholly below 1; every CPU ratio is 1.25
                .endsWith("lt against C reference, paired by round: rate 0.55×, slower by 45% [40%, 50%], CPU per request 1.25×, costlier by 25% [25%, 25%].");
    }

    /** A smoke run of the compare design (lt, et, c; 8 rounds of 1 s slices), kept as it came. */
    private static final Path COMPARE_RUN = Path.of("src", "test", "resources", "architectures-compare");

    @Test
    void theCompareDesignTakesEachRoundsSliceAndPairsTheServersByRound() {
        Results r = new Results(COMPARE_RUN);
        ArchitecturesExperiment.Run run = new ArchitecturesExperiment.Run(r);
        BenchComparison json = r.json("compare-echo-ka-50.json", BenchComparison.class);
        double[] lt = new double[json.config().rounds()], et = new double[lt.length];
        for (BenchComparison.Slice s : json.slices()) {
            if (s.server().equals("lt")) lt[s.round() - 1] = s.rate();
            if (s.server().equals("et")) et[s.round() - 1] = s.rate();
        }
        assertThat(run.compareDesign()).isTrue();
        assertThat(run.rounds("echo-ka-50")).isEqualTo(8);
        assertThat(run.rates("et", "echo-ka-50")).containsExactly(et);
        assertThat(run.rate("lt", "echo-ka-50")).isEqualTo(Stats.median(lt));
        assertThat(run.rateRatio("et", "lt", "echo-ka-50")).isEqualTo(MedianInterval.medianOfRatios(et, lt));
    }

    @Test
    void aRoundWithoutBothServersIsLeftOutOfTheirRatio() {
        double[] a = {2, 4, Double.NaN, 8}, b = {1, 2, 3, Double.NaN};
        assertThat(ArchitecturesExperiment.Run.pairedRounds(a, b)).isEqualTo(2);
        assertThat(ArchitecturesExperiment.Run.paired(a, b)).isEqualTo(MedianInterval.medianOfRatios(new double[] {2, 4}, new double[] {1, 2}));
        assertThat(ArchitecturesExperiment.Run.paired(new double[] {1, Double.NaN}, new double[] {1, 1})).isNull();
    }

    @Test
    void everyRatioCellSaysTheDirectionItsIntervalAllows() {
        ArchitecturesExperiment.Run run = new ArchitecturesExperiment.Run(new Results(COMPARE_RUN));
        Report out = new Report();
        ArchitecturesExperiment.ratioTables(run, out);
        ArchitecturesExperiment.claims(run, out);
        Pattern cell = Pattern.compile("(\\d+\\.\\d\\d)× \\[(\\d+\\.\\d\\d), (\\d+\\.\\d\\d)\\] (faster|slower|costlier|cheaper|unresolved)");
        int cells = 0;
        for (String table : new String[] {out.values.get("rate_ratio_table"), out.values.get("cpu_ratio_table")}) {
            Matcher m = cell.matcher(table);
            while (m.find()) {
                cells++;
                double low = Double.parseDouble(m.group(2)), high = Double.parseDouble(m.group(3));
                String expected = low > 1 ? "above" : high < 1 ? "below" : "unresolved";
                String said = switch (m.group(4)) {
                    case "faster", "costlier" -> "above";
                    case "slower", "cheaper" -> "below";
                    default -> "unresolved";
                };
                // the two-decimal figures may round an interval's end onto 1.00
                if (low != 1.0 && high != 1.0) assertThat(said).as(m.group()).isEqualTo(expected);
            }
        }
        // et and c against lt, in 3 echo levels, short connections and 2 /ping measures, for rate and CPU
        assertThat(cells).isEqualTo(2 * 2 * 6);
        assertThat(out.values.get("claims_table")).contains("| 8 |");
        assertThat(ArchitecturesExperiment.fastest(run, ArchitecturesExperiment.PIPELINE)).contains("against the next");
    }
}
