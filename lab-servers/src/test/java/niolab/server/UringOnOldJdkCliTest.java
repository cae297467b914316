package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.ServerProcess;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code uring} on a JVM too old for FFM: one line and exit 2, for the server and for mp's workers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UringOnOldJdkCliTest {
    @ParameterizedTest
    @ValueSource(strings = {"uring", "mp --worker-arch uring"})
    void uringOnAJdkOlderThan22IsOneLineAndExitTwo(String command) throws Exception {
        int jdk = Runtime.version().feature();
        Capability.JDK_22.assumeMissing("this JVM runs uring");
        try (ServerProcess p = ServerProcess.launch(List.of(), List.of(command.split(" ")))) {
            assertThat(p.awaitExit(30)).isEqualTo(2);
            assertThat(p.output().trim()).isEqualTo("error: uring needs JDK 22 or newer (this JVM is " + jdk + ")");
        }
    }
}
