package niolab.server;

import static niolab.server.testing.Http.ascii;
import static niolab.server.testing.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.PacedEchoLoad;
import niolab.server.testing.Proc;
import niolab.server.testing.RedisServer;
import niolab.server.testing.ServerProcess;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No connection of vt pins its carrier: the server runs under a flight recording of every
 * {@code jdk.VirtualThreadPinned} event (threshold 0, so even a short pinned park counts) while
 * its connection threads park in every way they can: reading, writing with the peer's window
 * full, closed by the idle sweep while parked in read or in write, closed by the end of the drain.
 * The recording then holds no pinned event but those the JDK makes on its own
 * ({@link #notTheJdksOwn}).
 *
 * <p>That this silence means something is checked twice: the same recording saw a virtual
 * thread start for every connection, and, run around {@link VtPinningProbe}, which pins a
 * carrier on purpose, it does hold a pinned event.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class VtNoPinningTest {
    private static final String PINNED = "jdk.VirtualThreadPinned";
    private static final String STARTED = "jdk.VirtualThreadStart";
    /** Only the two events read here, the pinned one at threshold 0. */
    private static final String SETTINGS = """
            <?xml version="1.0" encoding="UTF-8"?>
            <configuration version="2.0" label="vt pinning">
              <event name="jdk.VirtualThreadPinned">
                <setting name="enabled">true</setting>
                <setting name="stackTrace">true</setting>
                <setting name="threshold">0 ms</setting>
              </event>
              <event name="jdk.VirtualThreadStart">
                <setting name="enabled">true</setting>
              </event>
            </configuration>
            """;
    private static final int SILENT = 10;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"echo", "http"})
    void noConnectionThreadPinsItsCarrier(String protocol) throws Exception {
        Path jfr = dir.resolve(protocol + ".jfr");
        long accepts;
        try (ServerProcess p = ServerProcess.startWithJvmOptions(recordingTo(jfr),
                "vt", "--protocol", protocol, "--idle-timeout", "2s", "--buffer-size", "16384")) {
            InetSocketAddress address = p.address();
            List<Socket> silent = new ArrayList<>();
            for (int i = 0; i < SILENT; i++) silent.add(Echo.connect(address)); // parked in read until the sweep closes them
            if (protocol.equals("echo")) {
                PacedEchoLoad.run(address, 100, 256 * 1024, 2, 90); // slow readers: parked writes
            } else {
                httpLoad(address);
            }
            for (Socket s : silent) {
                s.setSoTimeout(20_000);
                assertThat(s.getInputStream().read()).as("closed by the idle sweep").isEqualTo(-1);
                s.close();
            }
            try (Socket hog = Echo.slowReader(address)) {
                Thread writer = writeWithoutReading(hog, protocol);
                writer.join(30_000);
                assertThat(writer.isAlive()).as("the idle sweep closed the hog under its parked write").isFalse();
            }
            try (Socket hog = Echo.slowReader(address)) {
                Thread writer = writeWithoutReading(hog, protocol);
                roundTrip(address, protocol); // others are served meanwhile
                assertThat(p.terminate(30)).as(p.output()).isZero(); // the drain's end (or the sweep) closes its parked write
                writer.join(10_000);
            }
            // The silent ones, the first hog, and the second one if the sweep came before the drain's end.
            assertThat(Proc.counter(p, "idle_closes")).as(p.output()).isBetween(SILENT + 1L, SILENT + 2L);
            accepts = Proc.counter(p, "accepts");
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        assertThat(count(events, STARTED)).as("virtual threads the recording saw start").isGreaterThanOrEqualTo(accepts);
        System.out.printf("vt, %s: %d pinned events recorded%n", protocol, count(events, PINNED));
        assertThat(describe(events, PINNED, VtNoPinningTest::notTheJdksOwn)).as("pinned events").isEmpty();
    }

    /**
     * Nor does {@code --backend}: 40 clients ask {@code /healthz} of a server whose 8 pooled
     * Redis connections their threads share, so the threads park in Jedis's reads and in the
     * pool's wait for a free connection; then Redis goes down and comes back, and the pool makes
     * its connections again. From JDK 24 only: on 21 to 23 commons-pool waits for a connection
     * being made in {@code Object.wait} under a monitor, which pins there (ThreadBackend says so).
     */
    @Test
    void healthzOnTheConnectionThreadsPinsNoCarrier() throws Exception {
        Capability.JDK_24.assume("a monitor pins a virtual thread before JDK 24");
        Path jfr = dir.resolve("backend.jfr");
        try (RedisServer redis = RedisServer.start();
             ServerProcess p = ServerProcess.startWithJvmOptions(recordingTo(jfr), "vt", "--protocol", "http", "--backend", redis.uri())) {
            healthzLoad(p.address(), 200);
            redis.stop();
            healthzLoad(p.address(), 503);
            redis.restart();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (healthz(p.address()) != 200 && System.nanoTime() < deadline) Thread.sleep(100);
            healthzLoad(p.address(), 200);
            assertThat(p.terminate(30)).as(p.output()).isZero();
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        System.out.printf("vt, http, backend thread: %d pinned events recorded%n", count(events, PINNED));
        assertThat(describe(events, PINNED, VtNoPinningTest::notTheJdksOwn)).as("pinned events").isEmpty();
    }

    /** 40 keep-alive clients at once, 25 {@code /healthz} each, every answer {@code status}. */
    private static void healthzLoad(InetSocketAddress address, int status) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(40);
        try {
            for (Future<?> f : keepAliveClients(pool, address, "/healthz", 25, status)) f.get(90, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    /** 40 keep-alive clients on {@code pool}, each asking {@code path} {@code requests} times, every answer {@code status}. */
    private static List<Future<?>> keepAliveClients(ExecutorService pool, InetSocketAddress address, String path, int requests,
            int status) {
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 40; c++) {
            done.add(pool.submit(() -> {
                try (Socket s = Echo.connect(address)) {
                    for (int i = 0; i < requests; i++) {
                        s.getOutputStream().write(ascii(get(path)));
                        assertThat(Http.read(s.getInputStream()).status()).isEqualTo(status);
                    }
                }
                return null;
            }));
        }
        return done;
    }

    private static int healthz(InetSocketAddress address) throws IOException {
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii(get("/healthz")));
            return Http.read(s.getInputStream()).status();
        }
    }

    /**
     * What the JDK pins on its own, which no server code can cause or avoid: its poller's
     * virtual threads waiting for the poller's class to finish initializing as the server starts
     * (JDK 22+), or any thread waiting once, the first time two threads need it together, for
     * another to finish initializing a class that is not the lab's: the JDK's (JDK 25 reports the
     * first contended {@code ReentrantLock} this way: its queue node's class) or a library's
     * (commons-pool2's {@code DestroyMode}, the first time two connections hand Jedis back a
     * broken Redis connection together); no JDK yet lets a virtual thread unmount while it waits
     * for a class initializer. Likewise a JDK class's initializer that the virtual thread runs itself
     * ("VM call to sun.nio.ch.Poller.<clinit> on stack": the first blocking read of a busy JVM
     * may be the one that initializes the poller). And, at threshold 0, microsecond waits inside one of its own critical sections
     * ({@code Continuation.pin}, which code outside java.base cannot call), such as the one in
     * which a channel takes the thread's interrupt lock at the start and end of each blocking
     * call: JDK 24+ reports these as {@code freeze_pinned_cs}, "Freeze or preempt failed (2)". A monitor held by the server
     * (JDK 21 to 23), a native frame or a class initializer of the server's own are reported
     * otherwise, and fail.
     */
    private static boolean notTheJdksOwn(RecordedEvent e) {
        boolean poller = e.getThread() != null && e.getThread().getJavaName() != null
                && e.getThread().getJavaName().startsWith("SubPoller-");
        String reason = e.hasField("pinnedReason") ? e.getString("pinnedReason") : "";
        boolean criticalSection = "Freeze or preempt failed (2)".equals(reason);
        boolean othersClassInit = reason.startsWith("Waited for initialization of ")
                && !reason.startsWith("Waited for initialization of niolab.");
        boolean jdkClassInit = reason.startsWith("VM call to ") && reason.endsWith(".<clinit> on stack")
                && !reason.startsWith("VM call to niolab.");
        return !poller && !criticalSection && !othersClassInit && !jdkClassInit;
    }

    /**
     * The recording is not blind: a carrier pinned on purpose shows up in it. On JDK 21 to 23 a
     * {@code synchronized} block around the connection's read would do it just as well (a virtual
     * thread holding a monitor could not unmount; JDK 24 lifted that); a class initializer pins
     * on every JDK, so the probe parks in one.
     */
    @Test
    void theRecordingShowsACarrierPinnedOnPurpose() throws Exception {
        Path jfr = dir.resolve("probe.jfr");
        List<String> cmd = new ArrayList<>();
        cmd.add(ServerProcess.javaBinary().toString());
        cmd.addAll(ServerProcess.testJvmOptions());
        cmd.addAll(recordingTo(jfr));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), VtPinningProbe.class.getName()));
        Process probe = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            String output = new String(probe.getInputStream().readAllBytes());
            assertThat(probe.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
            assertThat(probe.exitValue()).as(output).isZero();
        } finally {
            probe.destroyForcibly();
        }
        assertThat(describe(RecordingFile.readAllEvents(jfr), PINNED, e -> true)).as("pinned events").isNotEmpty();
    }

    private List<String> recordingTo(Path jfr) throws IOException {
        Path settings = dir.resolve("pinning.jfc");
        Files.writeString(settings, SETTINGS);
        return List.of("-XX:StartFlightRecording=settings=" + settings + ",filename=" + jfr + ",dumponexit=true");
    }

    /** 40 keep-alive clients, and one that pipelines ~1 MB of requests before it reads anything. */
    private static void httpLoad(InetSocketAddress address) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = keepAliveClients(pool, address, "/ping", 200, 200);
            try (Socket late = Echo.slowReader(address)) {
                int n = 40_000;
                Thread writer = new Thread(() -> writeQuietly(late, ascii(get("/ping").repeat(n))), "pipeliner");
                writer.setDaemon(true);
                writer.start();
                Thread.sleep(300); // the server's responses fill the window: its writes part and park
                InputStream in = new java.io.BufferedInputStream(late.getInputStream());
                for (int i = 0; i < n; i++) assertThat(Http.read(in).status()).isEqualTo(200);
                writer.join(30_000);
            }
            for (Future<?> f : done) f.get(90, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A client that sends far more than the kernel buffers hold and reads nothing: the server's
     * thread parks in write, and this one blocks until the server closes the connection.
     */
    private static Thread writeWithoutReading(Socket s, String protocol) {
        byte[] chunk = protocol.equals("echo") ? Echo.random(64 * 1024, 1) : ascii(get("/ping").repeat(2000));
        Thread t = new Thread(() -> {
            for (int i = 0; i < 1024; i++) {
                if (!writeQuietly(s, chunk)) return; // closed by the server
            }
        }, "never-reads");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static boolean writeQuietly(Socket s, byte[] bytes) {
        try {
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            return true;
        } catch (IOException closed) {
            return false;
        }
    }

    private static void roundTrip(InetSocketAddress address, String protocol) throws Exception {
        if (protocol.equals("echo")) {
            byte[] payload = Echo.random(10_000, 7);
            assertThat(Echo.roundTrip(address, payload, 1000, 7)).isEqualTo(payload);
            return;
        }
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii(get("/ping")));
            assertThat(Http.read(s.getInputStream()).status()).isEqualTo(200);
        }
    }

    private static long count(List<RecordedEvent> events, String type) {
        return events.stream().filter(e -> e.getEventType().getName().equals(type)).count();
    }

    /** Each event of {@code type} that {@code which} accepts, as its thread, its reason and the top of its stack. */
    private static List<String> describe(List<RecordedEvent> events, String type, Predicate<RecordedEvent> which) {
        List<String> described = new ArrayList<>();
        for (RecordedEvent e : events) {
            if (!e.getEventType().getName().equals(type) || !which.test(e)) continue;
            StringBuilder b = new StringBuilder(String.valueOf(e.getThread() == null ? "?" : e.getThread().getJavaName()));
            if (e.hasField("pinnedReason")) b.append(": ").append(e.getString("pinnedReason"));
            if (e.getStackTrace() != null) {
                for (RecordedFrame f : e.getStackTrace().getFrames().subList(0, Math.min(12, e.getStackTrace().getFrames().size()))) {
                    b.append("\n    ").append(f.getMethod().getType().getName()).append('.').append(f.getMethod().getName())
                            .append(':').append(f.getLineNumber());
                }
            }
            described.add(b.toString());
        }
        return described;
    }
}
