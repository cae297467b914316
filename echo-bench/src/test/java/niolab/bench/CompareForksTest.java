package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import niolab.common.results.BenchComparison;
import niolab.common.results.ResultsJson;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code echo-bench compare} with servers given as commands: fresh processes in every fork, the
 * A/A twin and the threshold, the failures of a command (one that exits, one that never
 * listens), and no process left behind, even when compare itself is stopped. The servers are
 * {@link FakeServer} processes under a modest --rate: what is tested is the design, not speed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CompareForksTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyForkStartsFreshProcessesWithAnAaCheckAndStopsThem(@TempDir Path dir) throws Exception {
        String tag = tag();
        Path json = dir.resolve("forks.json");
        Cli run = Cli.run("compare", "--forks", "3", "--rounds", "3", "--aa", "--slice", "150ms", "--warmup", "200ms", "--seed", "5", "-c", "1",
                "-k", "--rate", "200", "--json", json.toString(), "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("echo", tag));
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("3 servers, 3 forks (fresh server processes) of 3 rounds")
                .contains("# threshold: ±2.0% (the default), fixed before the data")
                .contains("# A/A check: A~aa is a second process of A's command in every fork")
                .containsPattern("\nB +rate .*\\(threshold ±2\\.0+%\\); detects .* with 90% power \\([6-9] rounds in 3 forks")
                .containsPattern("\n(warning: )?A/A check \\(A~aa against A\\): rate [0-9.]+ \\[[0-9.]+, [0-9.]+\\], (inside|beyond|too wide to check against) ±2\\.0%")
                .doesNotContainPattern("\nA~aa +rate");
        assertThat(FakeServer.tagged(tag)).as("every server process stopped").isEmpty();
        JsonNode root = JSON.readTree(json.toFile());
        assertThat(root.at("/config/forks").asInt()).isEqualTo(3);
        assertThat(root.at("/config/threshold").asDouble()).isEqualTo(0.02);
        assertThat(root.at("/config/aa").asBoolean()).isTrue();
        assertThat(root.at("/servers/0/command").asBoolean()).isTrue();
        assertThat(root.at("/servers/1/name").asText()).isEqualTo("A~aa");
        Set<String> perFork = new HashSet<>(), served = new HashSet<>();
        for (JsonNode s : root.get("slices")) {
            String forkServer = s.get("fork").asInt() + " " + s.get("server").asText();
            perFork.add(forkServer);
            // a 150 ms slice of a loaded suite may see no answer; each fork's server must see some
            if (s.get("requests").asLong() > 0) served.add(forkServer);
            assertThat(s.get("round").asInt()).isBetween(s.get("fork").asInt() * 3 - 2, s.get("fork").asInt() * 3);
        }
        assertThat(perFork).containsExactlyInAnyOrder("1 A", "1 A~aa", "1 B", "2 A", "2 A~aa", "2 B", "3 A", "3 A~aa", "3 B");
        assertThat(served).as("every fork's servers answered").isEqualTo(perFork);
        JsonNode summary = root.get("summary");
        assertThat(summary.get("forks").asInt()).isEqualTo(3);
        assertThat(summary.get("interval_method").asText()).contains("Student-t");
        assertThat(summary.get("aa_server").asText()).isEqualTo("A~aa");
        assertThat(summary.get("threshold").asDouble()).as("the A/A floor never sets it").isEqualTo(0.02);
        assertThat(summary.get("threshold_source").asText()).isEqualTo("default");
        assertThat(summary.get("level").asDouble()).isEqualTo(0.95);
        JsonNode rate = summary.at("/comparisons/1/rate");
        assertThat(summary.at("/comparisons/1/server").asText()).isEqualTo("B");
        assertThat(rate.get("forks").asInt()).isEqualTo(3);
        assertThat(rate.get("threshold").asDouble()).isEqualTo(0.02);
        assertThat(rate.get("detectable").asDouble()).as("at least the threshold").isGreaterThanOrEqualTo(0.02);
        assertThat(rate.get("words").asText()).contains("(threshold ±2.0");
        assertThat(rate.has("between_fork_share")).isTrue();
        BenchComparison read = ResultsJson.read(Files.readString(json), BenchComparison.class);
        assertThat(read.slices()).allMatch(s -> s.fork() != null);
        assertThat(read.summary().aaServer()).isEqualTo("A~aa");
        assertThat(read.summary().comparisons().get(1).rate().detectable()).isGreaterThanOrEqualTo(0.02);
    }

    @Test
    void serverLogsKeepEveryForksOutputUnderItsName(@TempDir Path dir) throws Exception {
        String tag = tag();
        Path logs = dir.resolve("logs/keepalive-4");
        Cli run = Cli.run("compare", "--forks", "3", "--rounds", "3", "--slice", "100ms", "--warmup", "0", "-c", "1", "-k",
                "--rate", "200", "--server-logs", logs.toString(), "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("echo", tag));
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        List<String> kept = new ArrayList<>();
        try (var files = Files.list(logs)) {
            files.forEach(f -> kept.add(f.getFileName().toString()));
        }
        assertThat(kept).containsExactlyInAnyOrder("A-fork-1.log", "A-fork-2.log", "A-fork-3.log", "B-fork-1.log", "B-fork-2.log", "B-fork-3.log");
        assertThat(Files.readString(logs.resolve("B-fork-2.log"))).contains("fake: listening on ");
        assertThat(FakeServer.tagged(tag)).isEmpty();
        Cli none = Cli.run("compare", "--server-logs", logs.toString(), "a=127.0.0.1:9");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).startsWith("error: --server-logs keeps the output of the servers compare starts").hasLineCount(1);
    }

    @Test
    void aGivenThresholdIsOnEveryVerdictForksKeepTheirGapAndNoTwinRunsUnlessAsked(@TempDir Path dir) throws Exception {
        String tag = tag();
        Path json = dir.resolve("t.json");
        Cli run = Cli.run("compare", "--threshold", "5%", "--forks", "3", "--rounds", "3", "--slice", "100ms", "--warmup", "200ms", "-c", "1",
                "--fork-gap", "100ms", "-k", "--rate", "200", "--json", json.toString(), "A=" + FakeServer.command("echo", tag),
                "B=" + FakeServer.command("echo", tag));
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("2 servers, 3 forks (fresh server processes, 100ms apart) of 3 rounds").doesNotContain("~aa").doesNotContain("A/A").contains("# threshold: ±5.0% (--threshold), fixed before the data")
                .containsPattern("\nB +rate .*\\(threshold ±5\\.0+%\\); detects .* \\([6-9] rounds in 3 forks");
        JsonNode root = JSON.readTree(json.toFile());
        assertThat(root.at("/config/threshold").asDouble()).isEqualTo(0.05);
        assertThat(root.at("/summary/threshold_source").asText()).isEqualTo("--threshold");
        assertThat(root.at("/summary/aa_server").isNull()).isTrue();
        assertThat(root.at("/summary/comparisons/0/rate/threshold").asDouble()).isEqualTo(0.05);
        assertThat(FakeServer.tagged(tag)).isEmpty();
    }

    @Test
    void aPilotPrintsTheDesignThatPowerNeeds() {
        String tag = tag();
        Cli run = Cli.run("compare", "--plan", "--detect", "5%", "--slice", "100ms", "--warmup", "100ms", "-c", "1", "-k", "--rate", "300",
                "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("echo", tag));
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("a pilot of 3 forks (fresh server processes) of 3 rounds")
                .containsPattern("\nplan: 90% power to call a 5\\.0% difference beyond ±2\\.0%(: --forks \\d+ --rounds \\d+, about | needs more than)");
        assertThat(FakeServer.tagged(tag)).isEmpty();
    }

    @Test
    void aCommandThatExitsIsOneLineWithItsStatusAndLastLines() {
        String tag = tag();
        Cli run = Cli.run("compare", "--forks", "3", "--rounds", "3", "--slice", "100ms", "--warmup", "0", "-c", "1", "--rate", "100",
                "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("exit", tag));
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).hasLineCount(1).startsWith("error: server B exited with status " + FakeServer.EXIT_STATUS + " before listening on port ")
                .contains("; its last lines: fake: starting | fake: cannot start: a bad configuration");
        assertThat(FakeServer.tagged(tag)).as("A, started first or not, is stopped").isEmpty();
    }

    @Test
    void aCommandThatNeverListensIsNamedAfterTheStartTimeout() throws Exception {
        String tag = tag();
        long t0 = System.nanoTime();
        Cli run = Cli.run("compare", "--start-timeout", "2s", "--forks", "3", "--rounds", "3", "--slice", "100ms", "--warmup", "0", "-c", "1",
                "--rate", "100", "A=" + FakeServer.command("mute", tag), "B=" + FakeServer.command("echo", tag));
        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(run.err()).hasLineCount(1).matches("error: server A did not listen on port \\d+ within 2 s; its last lines: fake: never listening\\n");
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).as("bounded by --start-timeout").isLessThan(30);
        assertThat(FakeServer.tagged(tag)).isEmpty();
    }

    /** A command server that exits mid-fork: one line with its status and last lines, its slices kept, exit 1, the others stopped. */
    @Test
    void aCommandThatExitsMidForkIsOneLineAndTheOthersAreStopped(@TempDir Path dir) throws Exception {
        String tag = tag();
        Path json = dir.resolve("quit.json");
        Cli run = Cli.run("compare", "--forks", "3", "--rounds", "12", "--slice", "100ms", "--warmup", "0", "-c", "1", "--rate", "100",
                "--json", json.toString(), "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("quit", tag));
        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(1);
        assertThat(run.err()).hasLineCount(1).startsWith("error: server B (")
                .containsPattern("\\) exited with status " + FakeServer.EXIT_STATUS + " (before|in) round \\d+; its last lines: .*fake: quitting mid-run; its \\d+ slices are kept");
        assertThat(JSON.readTree(json.toFile()).at("/servers/1/died").asText()).contains("exited with status " + FakeServer.EXIT_STATUS);
        assertThat(FakeServer.tagged(tag)).as("A stopped with it, and no B restarted in a later fork").isEmpty();
    }

    /** A running server that refuses connections from the start is one line before any round, and exit 2. */
    @Test
    void aRunningServerThatRefusesIsOneLine() throws Exception {
        int nobody = freePortNobodyHolds();
        Cli run;
        try (TestEchoServer a = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            run = Cli.run("compare", "--rounds", "6", "--slice", "100ms", "--warmup", "0", "-c", "1", "--rate", "100",
                    "A=" + a.hostPort(), "B=127.0.0.1:" + nobody);
        }
        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("error: server B: nothing accepts a connection on 127.0.0.1:" + nobody + " (Connection refused): start it "
                + "first, or give it as B='COMMAND ... {port}' for compare to start\n");
    }

    private static int freePortNobodyHolds() {
        try {
            return ForkedServer.freePort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void forksNeedCommandsAndCommandsNeedSenseOneLineEach() {
        String[][] cases = {
            {"compare", "--forks", "2", "a=sleep 1 {port}", "b=127.0.0.1:9"},
            {"compare", "--forks", "0", "a=sleep 1 {port}"},
            {"compare", "--forks", "3", "--rounds", "2", "a=sleep 1 {port}"},
            {"compare", "--rounds", "5", "a=127.0.0.1:9"},
            {"compare", "a=sleep 1 {port}", "b=127.0.0.1:9"},
            {"compare", "--aa", "a=127.0.0.1:9"},
            {"compare", "--until-decided", "--forks", "3", "a=sleep 1 {port}"},
            {"compare", "--until-decided", "--plan", "a=sleep 1 {port}"},
            {"compare", "--max-time", "1m", "a=sleep 1 {port}"},
            {"compare", "--detect", "5%", "a=sleep 1 {port}"},
            {"compare", "--plan", "--detect", "2%", "a=sleep 1 {port}"},
            {"compare", "--plan", "a=127.0.0.1:9"},
            {"compare", "--threshold", "2", "a=sleep 1 {port}"},
            {"compare", "--threshold", "100%", "a=sleep 1 {port}"},
            {"compare", "--start-timeout", "1ms", "a=sleep 1 {port}"},
            {"compare", "--fork-gap=-1s", "a=sleep 1 {port}"},
            {"compare", "--fork-gap", "1s", "a=127.0.0.1:9"},
            {"compare", "a= "},
            {"compare", "a=./myserver --port 9988"},
        };
        for (String[] args : cases) {
            Cli run = Cli.run(args);
            assertThat(run.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.err()).as(String.join(" ", args)).startsWith("error: ").hasLineCount(1);
            assertThat(run.out()).isEmpty();
        }
        assertThat(Cli.run("compare", "--forks", "3", "a=sleep 1 {port}", "b=127.0.0.1:9").err())
                .isEqualTo("error: --forks 3 starts fresh server processes: server b (127.0.0.1:9) is running already and cannot be restarted; "
                        + "give it as b='COMMAND ... {port}'\n");
        assertThat(Cli.run("compare", "--forks", "2", "a=sleep 1 {port}").err()).isEqualTo("error: --forks 2: a comparison in forks needs at "
                + "least 3 (its interval across F forks has F - 1 degrees of freedom: 2 forks give t = 12.7, wider than any difference worth calling)\n");
        assertThat(Cli.run("compare", "a=./myserver").err()).isEqualTo("error: server a: the command './myserver' has no {port}: compare starts "
                + "it on a free port and passes the port there (a running server is a=HOST:PORT)\n");
    }

    @Test
    void valuesAreCommandsUnlessTheyLookLikeHostPort() {
        assertThat(CompareTarget.isCommand("127.0.0.1:9988")).isFalse();
        assertThat(CompareTarget.isCommand("127.0.0.1:1,pd=3")).as("a typo is named, not run").isFalse();
        assertThat(CompareTarget.isCommand("[::1]:9988,pid=12")).isFalse();
        assertThat(CompareTarget.isCommand("bin/lab-server lt --port {port}")).isTrue();
        assertThat(CompareTarget.isCommand("nginx -c /etc/nginx.conf")).isTrue();
        assertThat(CompareTarget.isCommand("./myserver")).isTrue();
        assertThat(CompareTarget.isCommand("srv:{port}")).isTrue();
    }

    /**
     * SIGTERM to compare (Ctrl-C, a kill): its shutdown hook stops the servers it started, including
     * one whose start is under way: the signal comes as soon as the first process appears.
     */
    @Test
    void stoppingCompareStopsItsServers() throws Exception {
        String tag = tag();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "niolab.bench.EchoBench", "compare", "--rounds", "100", "--slice", "1s", "--warmup", "0", "-c", "1", "--rate", "50",
                "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("echo", tag)));
        Process compare = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            for (int i = 0; i < 600 && FakeServer.tagged(tag).isEmpty(); i++) Thread.sleep(20);
            assertThat(FakeServer.tagged(tag)).as("a server started").isNotEmpty();
            compare.destroy();
            assertThat(compare.waitFor(30, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 100 && !FakeServer.tagged(tag).isEmpty(); i++) Thread.sleep(50);
            assertThat(FakeServer.tagged(tag)).as("no server outlives compare").isEmpty();
        } finally {
            compare.destroyForcibly();
            FakeServer.tagged(tag).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * SIGKILL to compare mid-fork (the out-of-memory killer, a CI timeout, kill -9): no shutdown hook
     * runs, yet its tethers stop every server it started, the sh wrappers included, within 3 s, and
     * their ports are free. The commands keep their sh (a second command after the server's). The
     * server logs go to the test's own directory: a killed compare cannot delete its temporary one.
     */
    @Test
    void killingCompareOutrightLeavesNoServerAndNoPortBehind(@TempDir Path dir) throws Exception {
        String tag = tag();
        String server = FakeServer.command("echo", tag) + "; true";
        Process compare = new ProcessBuilder(compareJvm("--forks", "3", "--rounds", "100", "--slice", "200ms", "--warmup", "0", "--aa", "-c", "1",
                "--rate", "50", "--server-logs", dir.toString(), "A=" + server, "B=" + server)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Set<Integer> ports = new HashSet<>();
            // the baseline, its A/A twin and B, each under its sh, all listening: the fork's rounds are under way
            for (int i = 0; i < 1200 && listening(ports(tag)) < 3; i++) Thread.sleep(50);
            ports.addAll(ports(tag));
            assertThat(listening(ports)).as("three servers listening").isEqualTo(3);
            assertThat(FakeServer.tagged(tag).stream().filter(h -> h.info().command().orElse("").endsWith("sh"))).as("their sh wrappers").hasSize(3);
            Set<Long> started = new HashSet<>(List.of(compare.pid()));
            for (ProcessHandle h : FakeServer.tagged(tag)) started.add(h.pid());
            compare.destroyForcibly();
            assertThat(compare.waitFor(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 60 && !FakeServer.tagged(tag).isEmpty(); i++) Thread.sleep(50);
            assertThat(FakeServer.tagged(tag)).as("no process of compare's 3 s after its SIGKILL").isEmpty();
            // a port the suite's other servers are handed next may be listening again, but not by one of these
            Set<Long> holders = new HashSet<>();
            for (int port : ports) holders.addAll(listeners(port));
            assertThat(holders).as("their ports held by none of them").doesNotContainAnyElementsOf(started);
        } finally {
            compare.destroyForcibly();
            FakeServer.tagged(tag).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * SIGINT (SIGTERM where the JVM was started with SIGINT ignored, as in a script's background)
     * mid-run: compare prints the verdicts of the slices it completed, marked partial, writes its JSON
     * with "partial": true, stops its servers and exits with 128 plus the signal's number.
     */
    @Test
    void anInterruptedCompareKeepsWhatItMeasuredMarkedPartial(@TempDir Path dir) throws Exception {
        String tag = tag();
        Path json = dir.resolve("partial.json");
        Process compare = new ProcessBuilder(compareJvm("--forks", "3", "--rounds", "100", "--slice", "100ms", "--warmup", "0", "-c", "1",
                "--rate", "100", "--json", json.toString(), "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("echo", tag)))
                .redirectErrorStream(true).start();
        try {
            for (int i = 0; i < 1200 && listening(ports(tag)) < 2; i++) Thread.sleep(50);
            assertThat(listening(ports(tag))).as("both servers listening").isEqualTo(2);
            Thread.sleep(2500); // a dozen rounds
            String signal = ignored(compare.pid(), 2) ? "TERM" : "INT";
            assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(compare.pid())).start().waitFor()).isZero();
            String out = new String(compare.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(compare.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(compare.exitValue()).as(out).isEqualTo(signal.equals("INT") ? 130 : 143);
            assertThat(out).containsPattern("# partial: compare was stopped by SIG" + signal + "; the verdicts below are of the \\d+ slices it completed")
                    .containsPattern("\\nB +rate ");
            JsonNode root = JSON.readTree(json.toFile());
            assertThat(root.get("partial").asBoolean()).isTrue();
            assertThat(root.get("slices").size()).isPositive();
            assertThat(ResultsJson.read(Files.readString(json), BenchComparison.class).partial()).isTrue();
            assertThat(FakeServer.tagged(tag)).as("its servers stopped").isEmpty();
        } finally {
            compare.destroyForcibly();
            FakeServer.tagged(tag).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Whether process {@code pid} ignores signal {@code number} (SigIgn in /proc/PID/status). */
    private static boolean ignored(long pid, int number) throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("SigIgn:")) return (Long.parseLong(line.substring(7).trim(), 16) & (1L << (number - 1))) != 0;
        }
        return false;
    }

    /** echo-bench compare ARGS in a JVM of its own, as bin/echo-bench starts it. */
    private static List<String> compareJvm(String... args) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "niolab.bench.EchoBench", "compare"));
        command.addAll(List.of(args));
        return command;
    }

    /** The ports of the tagged FakeServer processes, from their command lines. */
    private static Set<Integer> ports(String tag) {
        Set<Integer> ports = new HashSet<>();
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("niolab\\.bench\\.FakeServer \\w+ (\\d+) " + tag);
        for (ProcessHandle h : FakeServer.tagged(tag)) {
            java.util.regex.Matcher m = p.matcher(h.info().commandLine().orElse(""));
            if (m.find()) ports.add(Integer.parseInt(m.group(1)));
        }
        return ports;
    }

    /**
     * The processes holding a listening TCP socket on {@code port}: the socket's inode from
     * /proc/net/tcp and tcp6 (state 0A), then each process's descriptors pointing at it.
     */
    private static Set<Long> listeners(int port) throws java.io.IOException {
        Set<String> inodes = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                String local = f[1];
                if (f[3].equals("0A") && Integer.parseInt(local.substring(local.indexOf(':') + 1), 16) == port) inodes.add("socket:[" + f[9] + "]");
            }
        }
        Set<Long> pids = new HashSet<>();
        if (inodes.isEmpty()) return pids;
        try (java.nio.file.DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                try (java.nio.file.DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
                    for (Path fd : fds) {
                        if (inodes.contains(Files.readSymbolicLink(fd).toString())) pids.add(Long.parseLong(proc.getFileName().toString()));
                    }
                } catch (java.io.IOException gone) {
                    // a process that exited, or one whose descriptors are not ours to read
                }
            }
        }
        return pids;
    }

    /** How many of {@code ports} accept a connection on the loopback. */
    private static int listening(Set<Integer> ports) {
        int n = 0;
        for (int port : ports) {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 500);
                n++;
            } catch (java.io.IOException refused) {
                // not listening
            }
        }
        return n;
    }

    private static String tag() {
        return "tag-" + UUID.randomUUID();
    }
}
