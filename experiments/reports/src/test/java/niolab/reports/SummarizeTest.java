package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code summarize}: the scripts' rows computed from their raw output. */
class SummarizeTest {
    /** wrk runs of exp-architectures' older design, their text and their rows as summarize wrote them. */
    private static final Path WRK_RUNS = Paths.get("src", "test", "resources", "wrk-runs");

    private final StringWriter out = new StringWriter(), err = new StringWriter();

    private int run(String... args) {
        CommandLine c = new CommandLine(new ExperimentReports());
        c.setOut(new PrintWriter(out));
        c.setErr(new PrintWriter(err));
        List<String> all = new ArrayList<>(List.of("summarize"));
        all.addAll(List.of(args));
        return c.execute(all.toArray(new String[0]));
    }

    @Test
    void theCommittedWrkRowsFollowFromWrksCommittedText(@TempDir Path dir) throws Exception {
        Csv wrk = Csv.parse(Files.readString(WRK_RUNS.resolve("wrk.csv")), "wrk.csv");
        StringBuilder manifest = new StringBuilder("server,measure,round,wrk\n");
        for (Map<String, String> r : wrk.rows()) {
            String file = "wrk-" + r.get("server") + "-" + r.get("measure") + "-r" + r.get("round") + ".txt";
            manifest.append(String.join(",", r.get("server"), r.get("measure"), r.get("round"),
                    WRK_RUNS.resolve("raw").resolve(file).toAbsolutePath().toString())).append('\n');
        }
        Files.writeString(dir.resolve("runs.csv"), manifest);
        assertThat(run("runs", dir.resolve("runs.csv").toString(), "--out", "server,measure,round,requests,requests_per_s,errors"))
                .isZero();
        assertThat(out.toString()).isEqualTo(Files.readString(WRK_RUNS.resolve("wrk.csv")));
    }

    @Test
    void perRequestValuesFromTheSamplesAndTheRunsOwnOutput(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("eb.csv"), "qps,requests,errors,server_cpu_us_per_req\n1000.5,4000,2,3.25\n");
        Files.writeString(dir.resolve("proc.txt"), String.join("\n",
                "a 10.0", "a 10.0 /proc/5/stat:5 (java) S " + "0 ".repeat(10) + "100 20" + " 0".repeat(40),
                "a 14.0", "a 14.0 /proc/5/stat:5 (java) S " + "0 ".repeat(10) + "130 30" + " 0".repeat(40),
                "a 14.0 /proc/5/task/5/status:voluntary_ctxt_switches:\t400", ""));
        Files.writeString(dir.resolve("runs.csv"), "server,round,key,echo_bench,seconds\nlt,1,a,eb.csv,4\n");
        assertThat(run("runs", dir.resolve("runs.csv").toString(), "--proc", dir.resolve("proc.txt").toString(),
                "--out", "server,round,requests_per_s=qps,cpu_ticks,proc_cpu_us_per_req,cpu_share,rate,errors")).isZero();
        // 40 ticks of 10 ms over 4000 requests: 100 µs each; over 4 s: 0.1 of a core
        assertThat(out.toString()).isEqualTo("server,round,requests_per_s,cpu_ticks,proc_cpu_us_per_req,cpu_share,rate,errors\n"
                + "lt,1,1000.5,40,100.00,0.100,1000.0,2\n");
    }

    @Test
    void aRunReadWithoutSamplesKeepsItsOwnValues(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("runs.csv"), "server,round,key,t0,t1,note\nlt,1,lt-r1,100.5,101.75,\n");
        assertThat(run("runs", dir.resolve("runs.csv").toString(), "--out", "server,round,elapsed_ms,elapsed_s,note")).isZero();
        assertThat(out.toString()).isEqualTo("server,round,elapsed_ms,elapsed_s,note\nlt,1,1250.0,1.250,\n");
    }

    @Test
    void countersChangeBetweenAServersStatsLines(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("stats.txt"), "stats: selects=100 events=7 events_per_wait=0.07\nstats: selects=1100 events=9\n");
        Files.writeString(dir.resolve("runs.csv"), "variant,stats\nbroken,stats.txt\n");
        assertThat(run("runs", dir.resolve("runs.csv").toString(), "--out", "variant,selects=stats.selects,stats.events")).isZero();
        assertThat(out.toString()).isEqualTo("variant,selects,stats.events\nbroken,1000,2\n");
    }

    @Test
    void classesByWhereTheyCameFrom(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("classes.log"), String.join("\n",
                "[0.010s][info][class,load] java.lang.Object source: shared objects file",
                "[0.020s][info][class,load] jdk.internal.Foo source: jrt:/java.base",
                "[0.030s][info][class,load] picocli.CommandLine source: jar:file:/x/lab-servers.jar!/",
                "[0.031s][info][class,load] niolab.server.Main source: file:/x/classes/",
                "[0.040s][info][class,load] niolab.server.Main$$Lambda/0x1 source: niolab.server.Main", ""));
        Files.writeString(dir.resolve("runs.csv"), "app,config,classlog\nlab-server,jdk25,classes.log\n");
        assertThat(run("runs", dir.resolve("runs.csv").toString(), "--out",
                "app,config,classes,from_cache,from_jdk_image,from_jar,from_jar_picocli,generated")).isZero();
        assertThat(out.toString()).endsWith("\nlab-server,jdk25,5,1,1,2,1,1\n");
    }

    @Test
    void aValueNoSourceGivesIsAnErrorForPeople(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("runs.csv"), "server,round\nlt,1\n");
        assertThat(run("runs", dir.resolve("runs.csv").toString(), "--out", "server,cpu_ticks")).isEqualTo(1);
        assertThat(err.toString()).startsWith("error: ").contains("no value cpu_ticks");
    }

    @Test
    void mediansPerGroupWithRatiosPairedByRound() {
        Csv csv = Csv.parse(String.join("\n", "measure,server,round,rate,cpu_us",
                "ping,lt,1,100.0,2.00", "ping,lt,2,300.0,4.00", "ping,lt,3,200.0,",
                "ping,vt,1,90.0,3.00", "ping,vt,2,110.0,5.00", "ping,vt,3,100.0,"), "samples.csv");
        // vt over lt, round by round: rate 0.9, 0.367, 0.5 (median 0.5, the range of 3 its interval); cpu 1.5, 1.25 (round 3 has none)
        assertThat(Summarize.medians(csv, List.of("measure", "server"), "server=lt").split("\n")).containsExactly(
                "measure,server,rate,cpu_us,rate_vs_lt,cpu_us_vs_lt",
                "ping,lt,200.0,3.00,1.000 [1.000–1.000],1.000 [1.000–1.000]",
                "ping,vt,100.0,4.00,0.500 [0.367–0.900],1.375 [1.250–1.500]");
    }
}
