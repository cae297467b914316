package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import niolab.testkit.QuietPorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scripts' servers die with the script, even a SIGKILLed one: scripts/lib.sh's tethered (which
 * start_server uses, and with it bench.sh, make run-bench-* and the experiments). bench.sh and
 * run-bench.sh themselves, which need the built jars, are killed in aot-training's ScriptsDieWithTheirStarterTest.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TetheredScriptsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void aTetheredCommandAndWhatItForkedDieWithAKilledScript() throws Exception {
        String tag = "tag-" + UUID.randomUUID();
        int direct = QuietPorts.free(), wrapped = QuietPorts.free();
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
            // a process whose memory is torn down has no command line while its sockets still close: wait for both
            for (int i = 0; i < 60 && (!FakeServer.tagged(tag).isEmpty() || QuietPorts.listening(direct) || QuietPorts.listening(wrapped)); i++) {
                Thread.sleep(50);
            }
            assertThat(FakeServer.tagged(tag)).as("no tethered process 3 s after the script's SIGKILL").isEmpty();
            assertThat(QuietPorts.listening(direct) || QuietPorts.listening(wrapped)).as("their ports free").isFalse();
        } finally {
            stop(bash);
            FakeServer.tagged(tag).forEach(ProcessHandle::destroyForcibly);
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

    private static void awaitListening(Process starter, int... ports) throws InterruptedException {
        for (int i = 0; i < 1200; i++) {
            boolean all = true;
            for (int port : ports) all &= QuietPorts.listening(port);
            if (all) return;
            assertThat(starter.isAlive()).as("the script runs").isTrue();
            Thread.sleep(50);
        }
        throw new AssertionError("not listening within 60 s");
    }
}
