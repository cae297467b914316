package niolab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * echo-bench/README.md's examples can be pasted: each block fenced as {@code ```sh runnable} runs
 * here as written, from the lab's root, with a free port in place of 9988 (a suite running beside
 * a server on 9988 must not meet it). Here because this module is built after the jars the blocks
 * launch; every block is bounded, and what it started is stopped even when it fails.
 */
class RunnableExamplesTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern BLOCK = Pattern.compile("(?ms)^```sh runnable\\n(.*?)^```");
    private static final long BOUND_SECONDS = 90;

    static List<String> blocks(String markdown) {
        List<String> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(markdown);
        while (m.find()) blocks.add(m.group(1));
        return blocks;
    }

    @Test
    void theRunnableBlocksOfEchoBenchsReadmeRunAsWritten(@TempDir Path dir) throws Exception {
        List<String> blocks = blocks(Files.readString(ROOT.resolve("echo-bench/README.md")));
        // a fence renamed by mistake would leave nothing to run, and pass
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(2);
        Process fresh = new ProcessBuilder("bash", "-c",
                "source scripts/fresh.sh && require_fresh_jars lab-servers/target/lab-servers.jar echo-bench/target/echo-bench.jar")
                .directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("fresh.log").toFile()).start();
        assertThat(fresh.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Assumptions.assumeTrue(fresh.exitValue() == 0,
                "the jars are not built from this tree (make all, or mvn verify, builds them first): " + Files.readString(dir.resolve("fresh.log")).strip());
        for (int i = 0; i < blocks.size(); i++) {
            String block = blocks.get(i);
            if (block.contains("taskset")) {
                Assumptions.assumeTrue(onPath("taskset"), "a block pins with taskset (util-linux), which is not installed");
                Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "a block pins to CPU 1: this machine has one CPU");
            }
            run(i, block, dir);
        }
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }

    private static void run(int index, String block, Path dir) throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        String script = "set -euo pipefail\n" + block.replace("9988", Integer.toString(port));
        Path out = dir.resolve("block-" + index + ".out");
        Path err = dir.resolve("block-" + index + ".err");
        Process bash = new ProcessBuilder("bash", "-c", script).directory(ROOT.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            boolean done = bash.waitFor(BOUND_SECONDS, TimeUnit.SECONDS);
            String why = "block " + index + ":\n" + block + "\nstdout:\n" + Files.readString(out) + "\nstderr:\n" + Files.readString(err);
            assertThat(done).as("finished within %d s: %s", BOUND_SECONDS, why).isTrue();
            assertThat(bash.exitValue()).as(why).isZero();
            assertThat(Files.readString(out)).as(why).contains("qps");
            assertThat(Files.readString(err)).as(why).doesNotContain("error:");
        } finally {
            bash.descendants().forEach(ProcessHandle::destroy);
            bash.destroy();
            stopServersOn(port);
        }
    }

    /** A server the block started outlives bash (it was backgrounded): found by its port, the one this test chose. */
    private static void stopServersOn(int port) {
        String flag = "--port " + port;
        List<ProcessHandle> left = ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(flag)).orElse(false)).toList();
        for (ProcessHandle p : left) p.destroy();
        for (ProcessHandle p : left) {
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void aBlockIsFoundOnlyBehindItsFence() {
        String md = "```sh\nnot this\n```\n\n```sh runnable\necho one\n```\ntext\n```sh runnable\necho two\necho three\n```\n";
        assertThat(blocks(md)).containsExactly("echo one\n", "echo two\necho three\n");
    }
}
