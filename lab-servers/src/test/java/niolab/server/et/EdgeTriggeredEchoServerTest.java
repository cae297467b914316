package niolab.server.et;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import niolab.server.testing.Echo;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What only edge-triggered epoll gets wrong: bursts left in the backlog, bytes left in a socket,
 * a FIN reported with the data, output that backs up, descriptors that run out. Each test
 * starts its own server and reads the counters it prints when stopped.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EdgeTriggeredEchoServerTest {

    @Test
    void aThousandConnectionsOpenedAtOnceAreAllAcceptedAndServed() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try (ServerProcess p = ServerProcess.start("et")) {
            try {
                for (int i = 0; i < 1000; i++) sockets.add(Echo.connect(p.address())); // all wait in the backlog
                for (int i = 0; i < sockets.size(); i++) sockets.get(i).getOutputStream().write(Echo.random(100, i));
                for (int i = 0; i < sockets.size(); i++) {
                    assertThat(Echo.readExactly(sockets.get(i).getInputStream(), 100)).isEqualTo(Echo.random(100, i));
                }
            } finally {
                for (Socket s : sockets) s.close();
            }
            assertThat(p.terminate(20)).isZero();
            assertThat(counter(p, "accepts")).isEqualTo(1000);
            assertThat(counter(p, "bytes_out")).isEqualTo(100_000);
        }
    }

    @Test
    void sixteenMebibytesToASlowReaderComeBackExactlyThroughPartialWrites() throws Exception {
        byte[] payload = Echo.random(16 << 20, 16);
        try (ServerProcess p = ServerProcess.start("et")) {
            try (Socket s = slowReader(p.address())) {
                CompletableFuture<Void> writer = Echo.writeAsync(s, payload, 256 * 1024, 16);
                byte[] echo = readSlowly(s.getInputStream(), payload.length);
                Echo.await(writer);
                assertThat(Echo.same(echo, payload)).as("16 MiB echoed exactly").isTrue();
            }
            assertThat(p.terminate(20)).isZero();
            assertThat(counter(p, "bytes_in")).isEqualTo(payload.length);
            assertThat(counter(p, "bytes_out")).isEqualTo(payload.length);
            assertThat(counter(p, "partial_writes")).as("the send buffer filled up: " + p.output()).isPositive();
        }
    }

    @Test
    void dataAndFinInOneEdgeStillGetTheirEchoAndAClose() throws Exception {
        // Writing then half-closing at once often lands both in one epoll event: the server
        // must not take its short read as "drained", or it never sees the FIN again.
        try (ServerProcess p = ServerProcess.start("et")) {
            for (int i = 0; i < 200; i++) {
                try (Socket s = Echo.connect(p.address())) {
                    byte[] payload = Echo.random(1 + i, i);
                    s.getOutputStream().write(payload);
                    s.shutdownOutput();
                    assertThat(Echo.readToEnd(s.getInputStream())).isEqualTo(payload);
                }
            }
            assertThat(p.terminate(20)).isZero();
            assertThat(counter(p, "closes")).isEqualTo(200);
        }
    }

    @Test
    void halfCloseWhileOutputIsPendingStillGetsTheWholeEcho() throws Exception {
        byte[] payload = Echo.random(4 << 20, 4);
        try (ServerProcess p = ServerProcess.start("et")) {
            try (Socket s = slowReader(p.address())) {
                CompletableFuture<Void> writer = Echo.writeAsync(s, payload, 64 * 1024, 4).thenRun(() -> {
                    try {
                        s.shutdownOutput(); // the FIN arrives while the server still holds unsent echo
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                byte[] echo = readSlowlyToEnd(s.getInputStream());
                Echo.await(writer);
                assertThat(Echo.same(echo, payload)).as("%d bytes echoed, then closed", echo.length).isTrue();
            }
            assertThat(p.terminate(20)).isZero();
            assertThat(counter(p, "resets")).isZero();
        }
    }

    @Test
    void aPeerThatResetsWithEchoPendingIsClosedAndCounted() throws Exception {
        try (ServerProcess p = ServerProcess.start("et")) {
            for (int i = 0; i < 5; i++) {
                Socket rude = slowReader(p.address());
                rude.getOutputStream().write(Echo.random(1 << 20, i)); // never read: the echo backs up
                rude.setSoLinger(true, 0);
                rude.close(); // RST
            }
            byte[] payload = Echo.random(10_000, 9);
            assertThat(Echo.roundTrip(p.address(), payload, 1000, 9)).isEqualTo(payload);
            assertThat(p.terminate(20)).isZero();
            assertThat(counter(p, "accepts")).isEqualTo(6);
            assertThat(counter(p, "closes")).isEqualTo(6);
            assertThat(counter(p, "resets")).as(p.output()).isPositive();
        }
    }

    @Test
    void aClientThatNeverReadsHoldsAtMostOneBufferOfServerMemory() throws Exception {
        int cap = 4096;
        try (ServerProcess p = ServerProcess.start("et", "--buffer-size", Integer.toString(cap));
             Socket s = Echo.connect(p.address())) {
            AtomicLong written = new AtomicLong();
            Thread writer = new Thread(() -> {
                byte[] chunk = new byte[64 * 1024];
                try {
                    OutputStream out = s.getOutputStream();
                    for (int i = 0; i < 1024; i++) { // up to 64 MiB, far more than the kernel buffers hold
                        out.write(chunk);
                        written.addAndGet(chunk.length);
                    }
                } catch (IOException expected) {
                    // the server closed us at stop
                }
            }, "never-reads");
            writer.setDaemon(true);
            writer.start();
            awaitNoProgress(written);

            assertThat(p.terminate(20)).isZero();
            long in = counter(p, "bytes_in");
            long out = counter(p, "bytes_out");
            // What the server read but could not send yet is what it holds for this client.
            assertThat(in - out).as(p.output()).isBetween(0L, (long) cap);
            assertThat(in).as("the rest waits in the kernel, or in the client").isLessThan(written.get());
            assertThat(written.get()).as("the writer was held back").isLessThan(1024L * 64 * 1024);
        }
    }

    @Test
    void runningOutOfDescriptorsPausesAcceptsLogsOnceAndServesTheWaitingConnectionsLater() throws Exception {
        int limit = 64;
        try (ServerProcess p = ServerProcess.startExactly(List.of("prlimit", "--nofile=" + limit + ":" + limit),
                List.of("et", "--port", "0"))) {
            long used;
            try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(p.pid()), "fd"))) {
                used = fds.count();
            }
            int first = (int) (limit - used); // what the server can still accept
            List<Socket> early = new ArrayList<>();
            List<Socket> waiting = new ArrayList<>();
            try {
                for (int i = 0; i < first; i++) early.add(Echo.connect(p.address()));
                for (int i = 0; i < 10; i++) waiting.add(Echo.connect(p.address())); // held in the backlog
                for (Socket s : early) roundTrip(s, 7);
                assertThat(p.awaitOutput("et: accept4 failed: EMFILE (Too many open files)", 20_000)).as(p.output()).isTrue();

                for (Socket s : early) s.close(); // descriptors free up; no new connection arrives to raise an edge
                early.clear();
                for (Socket s : waiting) roundTrip(s, 8);
            } finally {
                for (Socket s : early) s.close();
                for (Socket s : waiting) s.close();
            }
            assertThat(p.terminate(20)).isZero();
            assertThat(p.output().split("et: accept4 failed", -1)).as("one log line per episode").hasSize(2);
            assertThat(counter(p, "accept_failures")).isPositive();
            assertThat(counter(p, "accepts")).isEqualTo(first + 10);
        }
    }

    private static void roundTrip(Socket s, long seed) throws IOException {
        byte[] payload = Echo.random(100, seed);
        s.getOutputStream().write(payload);
        assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
    }

    /** A client with a small receive buffer, so that the server's send buffer fills while it dawdles. */
    private static Socket slowReader(InetSocketAddress address) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(8 * 1024);
        s.setSoTimeout(Echo.TIMEOUT_MS);
        s.connect(address, Echo.TIMEOUT_MS);
        return s;
    }

    private static byte[] readSlowly(InputStream in, int n) throws Exception {
        byte[] b = new byte[n];
        int got = 0;
        for (int reads = 0; got < n; reads++) {
            int r = in.read(b, got, Math.min(4096, n - got));
            if (r < 0) throw new IOException("stream ended after " + got + " of " + n + " bytes");
            got += r;
            if (reads % 64 == 0) Thread.sleep(1);
        }
        return b;
    }

    private static byte[] readSlowlyToEnd(InputStream in) throws Exception {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        byte[] b = new byte[4096];
        for (int reads = 0; ; reads++) {
            int r = in.read(b);
            if (r < 0) return all.toByteArray();
            all.write(b, 0, r);
            if (reads % 64 == 0) Thread.sleep(1);
        }
    }

    /** Waits (bounded) until {@code count} has stopped moving: the client is blocked in write. */
    private static void awaitNoProgress(AtomicLong count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long last = -1;
        int still = 0;
        while (still < 5 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            long now = count.get();
            still = now == last ? still + 1 : 0;
            last = now;
        }
    }

    private static long counter(ServerProcess p, String name) {
        Matcher m = Pattern.compile("counters: .*\\b" + name + "=(\\d+)").matcher(p.output());
        assertThat(m.find()).as("counter %s in %s", name, p.output()).isTrue();
        return Long.parseLong(m.group(1));
    }
}
