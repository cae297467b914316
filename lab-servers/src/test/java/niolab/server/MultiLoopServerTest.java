package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.server.testing.Echo;
import niolab.server.testing.Proc;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --loops N}: one JVM, N loops, one SO_REUSEPORT group; the kernel spreads the connections. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MultiLoopServerTest {
    private static final Pattern LOOP_ACCEPTS = Pattern.compile("(?m)^\\[loop(\\d)\\] counters: accepts=(\\d+) ");

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void connectionsAreSpreadOverTheLoopsAndCountedPerLoopAndSummed(String arch) throws Exception {
        try (ServerProcess p = ServerProcess.start(arch, "--loops", "2")) {
            assertThat(p.label()).isEqualTo(arch + ", 2 loops, echo");
            byte[] payload = Echo.random(64, 1);
            // Each connection from a new source port: the kernel's hash picks a loop for each.
            for (int i = 0; i < 200; i++) assertThat(Echo.roundTrip(p.address(), payload, 64, 1)).isEqualTo(payload);
            assertThat(p.terminate(20)).isZero();
            List<Long> perLoop = new ArrayList<>();
            Matcher m = LOOP_ACCEPTS.matcher(p.output());
            while (m.find()) perLoop.add(Long.parseLong(m.group(2)));
            assertThat(perLoop).as(p.output()).hasSize(2).allSatisfy(n -> assertThat(n).isPositive());
            assertThat(perLoop.get(0) + perLoop.get(1)).isEqualTo(200);
            assertThat(Proc.counter(p, "accepts")).isEqualTo(200);
        }
    }

    @Test
    void aLoopCountOutOfRangeIsAFlagError() throws Exception {
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of("et", "--loops", "0", "--port", "0"));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("--loops must be between 1 and 256, not 0").doesNotContain("Exception");
    }
}
