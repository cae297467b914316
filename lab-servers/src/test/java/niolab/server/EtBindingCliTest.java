package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.ServerProcess;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code et --binding}: the FFM binding needs JDK 22; a JVM too old for it says so in one line. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EtBindingCliTest {
    @Test
    void ffmOnAnOlderJdkIsOneLineAndExitTwo() throws Exception {
        Capability.JDK_22.assumeMissing("this JVM has FFM");
        try (ServerProcess p = ServerProcess.launch(List.of(), List.of("et", "--binding", "ffm", "--port", "0"))) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output().trim()).isEqualTo("error: --binding ffm needs JDK 22 or newer (this JVM is "
                    + Runtime.version().feature() + ")");
        }
    }

    @Test
    void anUnknownBindingIsAFlagError() throws Exception {
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of("et", "--binding", "jni", "--port", "0"));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("unknown binding 'jni' (expected jna or ffm)").doesNotContain("Exception");
    }

    @Test
    void mpPassesTheBindingOnlyToEtWorkers() throws Exception {
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of("mp", "--binding", "jna", "--port", "0"));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("--binding is et's own option; the workers run lt").doesNotContain("Exception");
    }
}
