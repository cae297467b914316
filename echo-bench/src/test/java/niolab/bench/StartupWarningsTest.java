package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * echo-bench, started as bin/echo-bench starts it (a JVM of its own, native access granted),
 * prints no {@code WARNING:} line from the JVM or a library on the JDK the suite runs on.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StartupWarningsTest {

    @Test
    void aShortRunPrintsNoWarning(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("echo-bench.log");
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            Process p = new ProcessBuilder(
                    Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"),
                    EchoBench.class.getName(), "--requests", "20", "--keepalive", server.hostPort())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("echo-bench exited").isTrue();
            } finally {
                p.destroyForcibly();
            }
            String output = Files.readString(log);
            assertThat(p.exitValue()).as(output).isZero();
            assertThat(output).contains("mean ");
            List<String> warnings = output.lines().filter(l -> l.startsWith("WARNING:")).collect(Collectors.toList());
            assertThat(warnings).as(output).isEmpty();
        }
    }
}
