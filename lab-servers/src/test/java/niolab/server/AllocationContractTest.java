package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import niolab.server.base.Server;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.ServerProcess;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Test;

/**
 * The loop thread allocates nothing per request, once warm: measured by the JVM's per-thread
 * allocation counter while the architecture's loop runs in this JVM. Each in-process loop runs
 * it through a subclass naming its command line, as the other suites do; what the loop may
 * allocate per accepted connection is {@link ServerUnderTest#bytesPerConnection()}: nothing where
 * the loop reuses its connection slots (et), what the JDK allocates where its accept goes
 * through the JDK's channels.
 */
public abstract class AllocationContractTest extends ServerContractTest {

    /** Requests per measured round; one allocation per request would be tens of KB. */
    protected static final int REQUESTS = 3000;
    protected static final long SLACK_BYTES = 16 * 1024;

    /** Each test runs its loop in this JVM: no server process to share. */
    @Override
    protected ServerProcess startSharedServer() {
        return null;
    }

    @Test
    void keepAliveEchoesAllocateNothingOnTheLoopThread() throws Exception {
        assertThat(allocatedByLoop("echo", AllocationContractTest::echoes, SLACK_BYTES))
                .as("bytes allocated by the loop thread").isLessThan(SLACK_BYTES);
    }

    @Test
    void httpKeepAliveAndPipelinedRequestsAllocateNothingOnTheLoopThread() throws Exception {
        assertThat(allocatedByLoop("http", AllocationContractTest::httpRequests, SLACK_BYTES))
                .as("bytes allocated by the loop thread").isLessThan(SLACK_BYTES);
    }

    @Test
    void shortConnectionsAllocateAtMostTheirPerConnectionShare() throws Exception {
        long connections = 2L * (REQUESTS / 10);
        long bytesPerConnection = serverUnderTest().bytesPerConnection();
        long share = SLACK_BYTES + connections / 2 * bytesPerConnection;
        long allocated = allocatedByLoop("echo", AllocationContractTest::shortEchoes, share)
                + allocatedByLoop("http", AllocationContractTest::shortHttp, share);
        assertThat(allocated).as("bytes allocated by the loop thread over %d short connections", connections)
                .isLessThan(2 * SLACK_BYTES + connections * bytesPerConnection);
    }

    /** Requests sent to a server in-process. */
    protected interface Traffic {
        void send(InetSocketAddress address, int requests) throws Exception;
    }

    /** Most rounds of traffic before the loop must have reached its steady state. */
    private static final int MAX_ROUNDS = 8;

    private long allocatedByLoop(String protocol, Traffic traffic, long bound) throws Exception {
        return allocatedByLoop(serverUnderTest().commandLine(List.of("--protocol", protocol)), traffic, bound);
    }

    /**
     * Bytes the loop thread of the server {@code serverArgs} describe allocated during one round
     * of {@code traffic}, once warm: rounds are repeated (at most {@value #MAX_ROUNDS}) until one
     * allocates less than {@code bound}, since the JIT may need several rounds to compile the
     * path (FFM's downcalls allocate until C2 has compiled them). A path that allocates per
     * request never gets under the bound.
     */
    protected static long allocatedByLoop(List<String> serverArgs, Traffic traffic, long bound) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Capability.THREAD_ALLOCATION.assume();
        mx.setThreadAllocatedMemoryEnabled(true);

        List<String> args = new ArrayList<>(serverArgs);
        args.addAll(List.of("--port", "0", "--backlog", "128", "--buffer-size", "65536"));
        Server server = LabServer.newServer(args.toArray(new String[0]));
        InetSocketAddress address = server.bind();
        Thread loop = new Thread(() -> {
            try {
                server.run();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "loop");
        loop.start();
        long allocated;
        try {
            traffic.send(address, REQUESTS); // warm up: JIT, first-use class loading, the fd table
            int round = 0;
            do {
                long before = mx.getThreadAllocatedBytes(loop.getId());
                traffic.send(address, REQUESTS);
                allocated = mx.getThreadAllocatedBytes(loop.getId()) - before;
            } while (allocated >= bound && ++round < MAX_ROUNDS);
        } finally {
            server.stop();
            loop.join(10_000);
        }
        assertThat(loop.isAlive()).isFalse();
        return allocated;
    }

    /** {@code requests} round trips on one connection, then as many again in pipelined batches of 16. */
    private static void httpRequests(InetSocketAddress address, int requests) throws Exception {
        byte[] one = Http.ascii(Http.get("/ping"));
        byte[] batch = Http.ascii(Http.get("/ping").repeat(16));
        try (Socket s = Echo.connect(address)) {
            OutputStream out = s.getOutputStream();
            InputStream in = buffered(s);
            for (int i = 0; i < requests; i++) {
                out.write(one);
                Http.read(in);
            }
            for (int i = 0; i < requests; i += 16) {
                out.write(batch);
                for (int j = 0; j < 16; j++) Http.read(in);
            }
        }
    }

    /** {@code requests / 10} connections with one {@code Connection: close} request each. */
    private static void shortHttp(InetSocketAddress address, int requests) throws Exception {
        byte[] close = Http.ascii("GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n");
        for (int i = 0; i < requests / 10; i++) {
            try (Socket s = Echo.connect(address)) {
                s.getOutputStream().write(close);
                assertThat(Http.read(buffered(s)).status()).isEqualTo(200);
            }
        }
    }

    /**
     * The socket's input, buffered: {@link Http#read} takes a byte at a time, a read call each on
     * the bare stream, and those calls cost this JVM more than the loop it measures.
     */
    static InputStream buffered(Socket s) throws IOException {
        return new BufferedInputStream(s.getInputStream(), 16 * 1024);
    }

    /** {@code echoes} round trips on one connection. */
    private static void echoes(InetSocketAddress address, int echoes) throws Exception {
        byte[] payload = Echo.random(64, 1);
        try (Socket s = Echo.connect(address)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (int i = 0; i < echoes; i++) {
                out.write(payload);
                Echo.readExactly(in, payload.length);
            }
        }
    }

    /** {@code echoes / 10} connections with one echo each. */
    private static void shortEchoes(InetSocketAddress address, int echoes) throws Exception {
        byte[] payload = Echo.random(64, 1);
        for (int i = 0; i < echoes / 10; i++) {
            try (Socket s = Echo.connect(address)) {
                s.getOutputStream().write(payload);
                Echo.readExactly(s.getInputStream(), payload.length);
            }
        }
    }
}
