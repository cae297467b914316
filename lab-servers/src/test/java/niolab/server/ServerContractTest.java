package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import niolab.server.testing.ServerProcess;
import niolab.server.testing.ServerUnderTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The base of every contract suite (echo, HTTP, fault, CLI, allocation, backend): a server
 * joins a suite with a subclass that overrides one hook, {@link #serverUnderTest()}, as a
 * transport joins Netty's testsuite. A suite whose tests can share a server gets one per test
 * class, started once and always stopped; a suite whose tests each need their own says so in
 * {@link #startSharedServer()}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class ServerContractTest {
    private static final Pattern STACK_TRACE = Pattern.compile("Exception|\tat |^\\s+at ", Pattern.MULTILINE);

    /** The server the suite's tests share; null in a suite whose tests each start their own. */
    protected ServerProcess server;
    protected InetSocketAddress address;

    /** How to start the server under test, and what the suites need to know of it. */
    protected abstract ServerUnderTest serverUnderTest();

    /** The options this suite adds after the command: its protocol, say. */
    protected List<String> suiteOptions() {
        return List.of();
    }

    /** Starts the server under test on port 0 with the suite's options and {@code extra}. */
    protected final ServerProcess startServer(String... extra) throws Exception {
        List<String> options = new ArrayList<>(suiteOptions());
        options.addAll(List.of(extra));
        return serverUnderTest().start(options);
    }

    /** The server the suite's tests share, started before the first; null if they share none. */
    protected ServerProcess startSharedServer() throws Exception {
        return startServer();
    }

    /** Stops the shared server (if it started); a suite that checks how it stops says so here. */
    protected void stopSharedServer() throws Exception {
        if (server != null) server.close();
    }

    @BeforeAll
    final void startShared() throws Exception {
        server = startSharedServer();
        if (server != null) address = server.address();
    }

    @AfterAll
    final void stopShared() throws Exception {
        stopSharedServer();
    }

    /** Faults are told in one line each: no stack trace, no exception's class name. */
    protected static void assertCleanLog(ServerProcess p) {
        assertThat(STACK_TRACE.matcher(p.output()).find()).as("a stack trace in:\n" + p.output()).isFalse();
    }
}
