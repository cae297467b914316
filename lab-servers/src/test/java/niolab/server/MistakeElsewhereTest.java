package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --mistake} on a server none of whose mistakes it names: one line and exit 2, before anything starts. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MistakeElsewhereTest {
    @ParameterizedTest
    @ValueSource(strings = {"bio", "vt", "uring"})
    void aMistakeOnAServerItDoesNotBreakIsOneLineAndExitTwo(String arch) throws Exception {
        // In-process: refused before anything starts (MistakesTest sees a refusal's exit status in a real process).
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of(arch, "--mistake", "nagle", "--port", "0"));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output().trim()).isEqualTo("error: --mistake acts in lt and et, not in " + arch);
    }
}
