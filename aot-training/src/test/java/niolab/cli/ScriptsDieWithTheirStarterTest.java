package niolab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import niolab.testkit.QuietPorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Timeout;

/**
 * bench.sh and make run-bench-* SIGKILLed while their server serves: the server dies with them
 * (scripts/lib.sh's tethered, under start_server). Here, in the module built after lab-servers,
 * echo-bench and the reports, because the scripts refuse jars older than their sources.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ScriptsDieWithTheirStarterTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void killingBenchShLeavesNoServer(@TempDir Path tmp) throws Exception {
        int port = QuietPorts.free();
        List<String> sweep = new ArrayList<>(List.of("bash", "bench.sh", "--sweep"));
        for (int i = 0; i < 500; i++) sweep.add("1");
        killedWhileServing(String.join(" ", sweep), port, Map.of("ARCHS", "lt"), tmp);
    }

    @Test
    void killingRunBenchLeavesNoServer(@TempDir Path tmp) throws Exception {
        killedWhileServing("bash scripts/run-bench.sh lt", QuietPorts.free(), Map.of("N", "1000000", "RUNS", "10"), tmp);
    }

    /**
     * Runs {@code command} (a script that starts lt on PORT), SIGKILLs it once lt listens, and finds lt
     * gone 3 s later. Its TMPDIR is {@code tmp}: a killed script cannot remove its own temporary files.
     */
    private static void killedWhileServing(String command, int port, Map<String, String> env, Path tmp) throws Exception {
        Map<String, String> all = new HashMap<>(env);
        all.put("PORT", Integer.toString(port));
        all.put("TMPDIR", tmp.toString());
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "exec " + command + "\n").directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(all);
        Process bash = pb.start();
        try {
            for (int i = 0; i < 1200 && !QuietPorts.listening(port); i++) {
                assertThat(bash.isAlive()).as("the script runs").isTrue();
                Thread.sleep(50);
            }
            assertThat(QuietPorts.listening(port)).as("lt listening on " + port).isTrue();
            assertThat(labServers(port)).as("lt on " + port).isNotEmpty();
            bash.destroyForcibly();
            assertThat(bash.waitFor(10, TimeUnit.SECONDS)).isTrue();
            // a process whose memory is torn down has no command line while its sockets still close: wait for both
            for (int i = 0; i < 60 && (!labServers(port).isEmpty() || QuietPorts.listening(port)); i++) Thread.sleep(50);
            assertThat(labServers(port)).as("no server 3 s after the script's SIGKILL").isEmpty();
            assertThat(QuietPorts.listening(port)).as("port " + port + " free").isFalse();
        } finally {
            bash.descendants().forEach(ProcessHandle::destroyForcibly);
            bash.destroyForcibly();
            labServers(port).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** The lab servers whose command line names {@code --port PORT}: bin/lab-server's java, an mp master's workers. */
    private static List<ProcessHandle> labServers(int port) {
        List<ProcessHandle> found = new ArrayList<>();
        ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains("niolab.server") && c.contains(" " + port))
                .orElse(false)).forEach(found::add);
        return found;
    }
}
