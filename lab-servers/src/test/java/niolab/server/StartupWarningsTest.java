package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import niolab.server.testing.Echo;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A server's output holds no {@code WARNING:} line from the JVM or a library, from start to
 * exit, on the JDK the suite runs on. Native code (JNA in et, Netty's epoll library) is what
 * JDK 24+ reports unless native access is granted; a new library's warning is caught here too.
 * A subclass names the servers, each as its command line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
public abstract class StartupWarningsTest {

    /** The command lines to start, e.g. {@code "et"} or {@code "mp --workers 2"}. */
    protected abstract Stream<String> servers();

    @ParameterizedTest
    @MethodSource("servers")
    void printsNoWarningFromStartToExit(String commandLine) throws Exception {
        try (ServerProcess p = ServerProcess.start(commandLine.split(" "))) {
            byte[] payload = Echo.random(100, 1);
            assertThat(Echo.roundTrip(p.address(), payload, 100, 1)).isEqualTo(payload);
            assertThat(p.terminate(20)).isZero();
            assertThat(p.warningLines()).as("output of %s:%n%s", commandLine, p.output()).isEmpty();
        }
    }
}
