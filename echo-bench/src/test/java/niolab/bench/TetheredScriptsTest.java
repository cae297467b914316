package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scripts' servers die with the script, even a SIGKILLed one: scripts/lib.sh's tethered (which
 * start_server uses, and with it bench.sh, make run-bench-* and the experiments). bench.sh and
 * run-bench.sh themselves need the built jars, fresh (make all): without them they skip, saying so.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TetheredScriptsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void aTetheredCommandAndWhatItForkedDieWithAKilledScript() throws Exception {
        String tag = "tag-" + UUID.randomUUID();
        int direct = ForkedServer.freePort(), wrapped = ForkedServer.freePort();
        String script = "set -euo pipefail; source scripts/lib.sh\n"
                + "tethered " + FakeServer.command("echo", tag).replace("{port}", Integer.toString(direct)) + "\n"
                // a server under a shell that stays: the watcher stops the whole group, not only its leader
                + "tethered sh -c \"" + FakeServer.command("echo", tag).replace("{port}", Integer.toString(wrapped)) + "; true\"\n"
                + "sleep 100\n";
        Process bash = bash(script, Map.of());
        try {
            awaitListening(bash, direct, wrapped);
            assertThat(FakeServer.tagged(tag)).as("two servers and a sh").hasSize(3);
            bash.destroyForcibly();
            assertThat(bash.waitFor(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 60 && !FakeServer.tagged(tag).isEmpty(); i++) Thread.sleep(50);
            assertThat(FakeServer.tagged(tag)).as("no tethered process 3 s after the script's SIGKILL").isEmpty();
            assertThat(listening(direct) || listening(wrapped)).as("their ports free").isFalse();
        } finally {
            stop(bash);
            FakeServer.tagged(tag).forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void killingBenchShLeavesNoServer() throws Exception {
        assumeFresh("lab-servers/target/lab-servers.jar", "experiments/reports/target/reports.jar");
        int port = ForkedServer.freePort();
        List<String> sweep = new ArrayList<>(List.of("bash", "bench.sh", "--sweep"));
        for (int i = 0; i < 500; i++) sweep.add("1");
        killedWhileServing(String.join(" ", sweep), port, Map.of("ARCHS", "lt"));
    }

    @Test
    void killingRunBenchLeavesNoServer() throws Exception {
        assumeFresh("lab-servers/target/lab-servers.jar", "echo-bench/target/echo-bench.jar");
        killedWhileServing("bash scripts/run-bench.sh lt", ForkedServer.freePort(), Map.of("N", "1000000", "RUNS", "10"));
    }

    /** Runs {@code command} (a script that starts lt on PORT), SIGKILLs it once lt listens, and finds lt gone 3 s later. */
    private static void killedWhileServing(String command, int port, Map<String, String> env) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("PORT", Integer.toString(port));
        Process bash = bash("exec " + command + "\n", all);
        try {
            awaitListening(bash, port);
            List<ProcessHandle> servers = labServers(port);
            assertThat(servers).as("lt on " + port).isNotEmpty();
            bash.destroyForcibly();
            assertThat(bash.waitFor(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 60 && !labServers(port).isEmpty(); i++) Thread.sleep(50);
            assertThat(labServers(port)).as("no server 3 s after the script's SIGKILL").isEmpty();
            assertThat(listening(port)).as("port " + port + " free").isFalse();
        } finally {
            stop(bash);
            labServers(port).forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static Process bash(String script, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        return pb.start();
    }

    private static void stop(Process bash) {
        bash.descendants().forEach(ProcessHandle::destroyForcibly);
        bash.destroyForcibly();
    }

    private static void assumeFresh(String... jars) throws Exception {
        StringBuilder check = new StringBuilder("source scripts/fresh.sh");
        for (String jar : jars) check.append(" && jar_fresh ").append(jar);
        Process p = new ProcessBuilder("bash", "-c", check.toString()).directory(ROOT.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor() == 0 && Files.isRegularFile(ROOT.resolve(jars[0])), "needs " + String.join(" and ", jars) + " fresh (make all): " + out);
    }

    private static void awaitListening(Process starter, int... ports) throws InterruptedException {
        for (int i = 0; i < 1200; i++) {
            boolean all = true;
            for (int port : ports) all &= listening(port);
            if (all) return;
            assertThat(starter.isAlive()).as("the script runs").isTrue();
            Thread.sleep(50);
        }
        throw new AssertionError("not listening within 60 s");
    }

    /** The lab servers whose command line names {@code --port PORT}: bin/lab-server's java, an mp master's workers. */
    private static List<ProcessHandle> labServers(int port) {
        List<ProcessHandle> found = new ArrayList<>();
        ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains("niolab.server") && c.contains(" " + port))
                .orElse(false)).forEach(found::add);
        return found;
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
