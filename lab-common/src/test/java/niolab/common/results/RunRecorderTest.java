package niolab.common.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** env.json and conditions.json as the experiment scripts record them. */
class RunRecorderTest {
    private static final String CPU_BEFORE = "cpu  1000 10 500 8000 100 0 50 20 0 0";
    private static final String CPU_AFTER = "cpu  1600 10 700 9000 100 0 70 45 0 0";

    @Test
    void stealIsTheHypervisorsShareOfAllCpuTimeBetweenTheSnapshots() {
        RunConditions c = RunRecorder.conditions("1.20 1.00 0.90", CPU_BEFORE, "2.10 1.40 1.00", CPU_AFTER, "noise.json");
        // user +600, system +200, idle +1000, softirq +20, steal +25: 1845 ticks, 25 of them stolen
        assertThat(c).isEqualTo(new RunConditions("1.20 1.00 0.90", "2.10 1.40 1.00", 25, 1845, 1.36, "noise.json"));
        assertThat(RunRecorder.conditions("0 0 0", CPU_BEFORE, "0 0 0", CPU_BEFORE, null).stealPercent()).isZero();
        assertThat(ResultsJson.pretty(c)).isEqualTo(String.join("\n", "{", "  \"loadavg_before\": \"1.20 1.00 0.90\",",
                "  \"loadavg_after\": \"2.10 1.40 1.00\",", "  \"steal_ticks\": 25,", "  \"total_ticks\": 1845,", "  \"steal_percent\": 1.360,",
                "  \"noise\": \"noise.json\"", "}"));
    }

    @Test
    void conditionsFromASnapshotFileAndAMissingOneIsOneLine(@TempDir Path dir) throws IOException {
        Path begin = dir.resolve(".conditions-begin");
        Files.writeString(begin, "0.50 0.40 0.30\n" + CPU_BEFORE + "\n");
        Output ok = run("conditions", begin.toString(), "--noise", "noise.json");
        assertThat(ok.code).isZero();
        RunConditions c = ResultsJson.read(ok.out, RunConditions.class);
        assertThat(c.loadavgBefore()).isEqualTo("0.50 0.40 0.30");
        assertThat(c.loadavgAfter()).matches("\\d+\\.\\d\\d \\d+\\.\\d\\d \\d+\\.\\d\\d");
        assertThat(c.noise()).isEqualTo("noise.json");
        Output missing = run("conditions", dir.resolve("none").toString());
        assertThat(missing.code).isEqualTo(1);
        assertThat(missing.err).startsWith("error: ").doesNotContain("Exception").hasLineCount(1);
        assertThat(run("nonsense").code).isEqualTo(2);
    }

    @Test
    void memoryAsFreeShowsIt() {
        assertThat(RunRecorder.humanSize(24_536_756L * 1024)).isEqualTo("23Gi");
        assertThat(RunRecorder.humanSize(8_113_000L * 1024)).isEqualTo("7.7Gi");
        assertThat(RunRecorder.humanSize(512L << 20)).isEqualTo("512Mi");
        assertThat(RunRecorder.humanSize(1023)).isEqualTo("1023B");
    }

    @Test
    void theJdkLineIsTheFirstLineJavaVersionPrints() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version").redirectErrorStream(true).start();
        String first = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElse("");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(RunRecorder.jdk()).isEqualTo(first);
    }

    @Test
    void theEnvironmentRecordsPinningAsSetAndTheCommitOfTheRepository() throws IOException {
        RunEnvironment pinned = RunRecorder.environment(Path.of(".."), Map.of("SERVER_CPU", "0", "CLIENT_CPU", "1", "JAVA_OPTS", "-Xmx1g"));
        assertThat(pinned.serverCpu()).isEqualTo("0");
        assertThat(pinned.clientCpu()).isEqualTo("1");
        assertThat(pinned.javaOpts()).isEqualTo("-Xmx1g");
        assertThat(pinned.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(pinned.kernel()).isEqualTo(System.getProperty("os.name") + " " + System.getProperty("os.version"));
        assertThat(pinned.date()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        Path ports = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        if (Files.isReadable(ports)) {
            assertThat(pinned.ipLocalPortRange()).isEqualTo(String.join(" ", Files.readAllLines(ports).get(0).trim().split("\\s+")));
        }
        assertThat(pinned.commit()).matches("[0-9a-f]{7,}( \\Q" + RunEnvironment.DIRTY + "\\E)?|unknown");
        RunEnvironment unpinned = RunRecorder.environment(Path.of(".."), Map.of("SERVER_CPU", ""));
        assertThat(unpinned.serverCpu()).isEqualTo("unpinned");
        assertThat(unpinned.clientCpu()).isEqualTo("unpinned");
        assertThat(unpinned.javaOpts()).isEmpty();
        assertThat(ResultsJson.read(ResultsJson.pretty(pinned), RunEnvironment.class)).isEqualTo(pinned);
    }

    private record Output(int code, String out, String err) {
    }

    private static Output run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine command = new CommandLine(new RunRecorder()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
        int code = command.execute(args);
        return new Output(code, out.toString(), err.toString());
    }
}
