package niolab.server;

import java.net.InetSocketAddress;
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

    /** Starts this architecture's server on port 0. */
    protected abstract ServerProcess startServer() throws Exception;

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
