package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import niolab.bench.SerialSocket.Kind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import niolab.testkit.Capability;

/**
 * The serial client on each of its sockets (the JDK's channel; FFM on JDK 22+): every echo
 * checked, every failure in its class, every blocking call bounded by the timeout, the close a
 * FIN, or an RST under --linger0, and through FFM no allocation per request.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SerialClientTest {
    private static final byte[] PAYLOAD = Payload.random(64, 1);
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static SerialClient client(Kind kind, int port, int timeoutMs, long requests, boolean linger0) {
        Capability.JDK_22.assume(kind.available(), "FFM needs JDK 22 or newer, and a build on one (this JVM is " + Runtime.version().feature() + ")");
        return new SerialClient(new InetSocketAddress(LOOPBACK, port), new EchoCodec(PAYLOAD), timeoutMs, requests, Long.MAX_VALUE,
                linger0, kind);
    }

    @ParameterizedTest
    @CsvSource({"CHANNEL,ECHO,", "CHANNEL,CORRUPT,MISMATCH", "CHANNEL,CLOSE_EARLY,SHORT", "CHANNEL,RESET,RESET",
            "CHANNEL,SILENT,TIMEOUT", "FFM,ECHO,", "FFM,CORRUPT,MISMATCH", "FFM,CLOSE_EARLY,SHORT", "FFM,RESET,RESET",
            "FFM,SILENT,TIMEOUT"})
    void eachServerBehaviourIsCountedInItsClass(Kind kind, TestEchoServer.Mode mode, ErrorClass expected) throws Exception {
        try (TestEchoServer server = new TestEchoServer(mode)) {
            // short only where it must expire: a busy machine must not turn a slow echo into a timeout
            SerialClient c = client(kind, server.address().getPort(), mode == TestEchoServer.Mode.SILENT ? 300 : 10_000, 3, false);
            c.run();
            if (expected == null) {
                assertThat(c.stats.errorCount).isZero();
                assertThat(c.stats.corrected.getIntervalHistogram().getTotalCount()).isEqualTo(3);
            } else {
                assertThat(c.stats.errors.get(expected)).as(c.stats.errors.summary()).isEqualTo(3);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void refusedConnectIsRefused(Kind kind) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            port = s.getLocalPort();
        }
        SerialClient c = client(kind, port, 1000, 2, false);
        c.run();
        assertThat(c.stats.errors.get(ErrorClass.REFUSED)).as(c.stats.errors.summary()).isEqualTo(2);
    }

    /** A listener whose accept queue is full drops the SYN: connect blocks until the watchdog aborts it. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void connectToAFullBacklogTimesOut(Kind kind) throws Exception {
        List<Socket> fillers = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0, 1, LOOPBACK)) {
            SerialClient c = client(kind, server.getLocalPort(), 300, 1, false);
            // never accepted: they fill the queue (of backlog + 1), then SYNs are dropped
            for (int i = 0; i < 3; i++) fillers.add(connectNonBlocking(server.getLocalPort()));
            c.run();
            assertThat(c.stats.errors.get(ErrorClass.TIMEOUT)).as(c.stats.errors.summary()).isEqualTo(1);
        } finally {
            for (Socket s : fillers) s.close();
        }
    }

    private static Socket connectNonBlocking(int port) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(LOOPBACK, port), 200);
        } catch (IOException e) {
            // a filler that finds the queue full already is not needed
        }
        return s;
    }

    /** The watchdog aborts the late call only: the requests after it succeed. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aTimeoutSpoilsOnlyItsOwnRequest(Kind kind) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, LOOPBACK)) {
            SerialClient c = client(kind, server.getLocalPort(), 1000, 21, false);
            // the first connection gets no answer; every later one its echo
            CompletableFuture<Void> serving = CompletableFuture.runAsync(() -> {
                try (Socket silent = server.accept()) {
                    for (int i = 0; i < 20; i++) {
                        try (Socket s = server.accept()) {
                            s.getOutputStream().write(s.getInputStream().readNBytes(PAYLOAD.length));
                        }
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            c.run();
            serving.get(10, TimeUnit.SECONDS);
            assertThat(c.stats.errors.get(ErrorClass.TIMEOUT)).as(c.stats.errors.summary()).isEqualTo(1);
            assertThat(c.stats.errorCount).isEqualTo(1);
            assertThat(c.stats.corrected.getIntervalHistogram().getTotalCount()).isEqualTo(20);
        }
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().endsWith("-watchdog") && t.isAlive());
    }

    /**
     * Through FFM a request allocates nothing once C2 has compiled the path (before that the
     * downcalls run through method-handle adapters that box). Runs of 3,000 requests until one
     * allocates under a byte per request; the run's own start (the watchdog thread) is about
     * 2 KB. The histogram is sized up front so that its growth is not counted. Tagged c2: the
     * suite's other test JVMs stop at the client compiler, which never removes those boxes.
     */
    @Test
    @Tag("c2")
    void ffmRequestsAllocateNothingOnceCompiled() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double perRequest = Double.MAX_VALUE;
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            for (int run = 0; run < 20 && perRequest >= 1.0; run++) {
                SerialClient c = client(Kind.FFM, server.address().getPort(), 10_000, 3000, false);
                c.stats.corrected.recordValue(TimeUnit.HOURS.toMicros(1));
                c.stats.corrected.getIntervalHistogram();
                long before = threads.getCurrentThreadAllocatedBytes();
                c.run();
                perRequest = (threads.getCurrentThreadAllocatedBytes() - before) / 3000.0;
                assertThat(c.stats.errorCount).isZero();
            }
        }
        assertThat(perRequest).as("bytes allocated per request").isLessThan(1.0);
    }

    @ParameterizedTest
    @CsvSource({"CHANNEL,false", "CHANNEL,true", "FFM,false", "FFM,true"})
    void linger0ClosesWithAReset(Kind kind, boolean linger0) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, LOOPBACK)) {
            SerialClient c = client(kind, server.getLocalPort(), 5000, 1, linger0);
            // echoes one request, then reports how the client's close arrived
            CompletableFuture<String> close = CompletableFuture.supplyAsync(() -> {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    s.getOutputStream().write(in.readNBytes(PAYLOAD.length));
                    return in.read() < 0 ? "fin" : "data";
                } catch (IOException e) {
                    return String.valueOf(e.getMessage()).contains("reset") ? "rst" : e.toString();
                }
            });
            c.run();
            assertThat(c.stats.errorCount).isZero();
            assertThat(close.get(10, TimeUnit.SECONDS)).isEqualTo(linger0 ? "rst" : "fin");
        }
    }
}
