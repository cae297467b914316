package niolab.server;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** What every contract suite shares: one server per test class, started once, always stopped. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class ServerContractTest {
    protected ServerProcess server;
    protected InetSocketAddress address;

    /**
     * The server under test, as its command line begins: {@code lt}, {@code mp --workers 2},
     * {@code netty-epoll}. This is all a subclass says; the suite adds its protocol and port 0.
     */
    protected abstract List<String> arch();

    /** The options this suite adds after {@link #arch()}: its protocol. */
    protected List<String> suiteOptions() {
        return List.of();
    }

    /** Starts the server on port 0. */
    protected ServerProcess startServer() throws Exception {
        return startServer(List.of());
    }

    /** Starts the server on port 0 with {@code extra} options too; a server that is not a lab-server command overrides this. */
    protected ServerProcess startServer(List<String> extra) throws Exception {
        List<String> args = new ArrayList<>(arch());
        args.addAll(suiteOptions());
        args.addAll(extra);
        return ServerProcess.start(args.toArray(new String[0]));
    }

    @BeforeAll
    void start() throws Exception {
        server = startServer();
        address = server.address();
    }

    @AfterAll
    void stop() {
        if (server != null) server.close();
    }
}
