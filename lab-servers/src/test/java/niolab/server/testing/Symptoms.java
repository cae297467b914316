package niolab.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.common.CountersLine;
import niolab.server.proto.HttpPing;

/**
 * The scenarios MistakesTest runs against a broken server and its correct twin ({@link Twins}),
 * and the symptoms each measures: counts (connections echoed, bytes, wakeups, log lines, reads
 * per response, resident memory), never timings. Every wait is bounded.
 */
public final class Symptoms {
    private static final Pattern LOOP_COUNTERS = Pattern.compile("(?m)^\\[loop\\d+\\] counters: (.*)$");

    private Symptoms() {
    }

    /**
     * Of {@code tries} heads of {@code size} bytes, each sent in one write and read after it or
     * {@code during} it, in how many the client did not get a whole 431 and end of stream, or its write met a reset.
     */
    public static int resetsSeen(ServerProcess p, int size, boolean during, int tries) throws Exception {
        int seen = 0;
        for (int i = 0; i < tries; i++) {
            ClosingExchange.Result r = ClosingExchange.run(p.address(), ClosingExchange.oversizeHead(size), during);
            if (r.outcome() != ClosingExchange.Outcome.ANSWER_THEN_EOF || r.status() != 431 || r.writer() != null) seen++;
        }
        return seen;
    }

    /** {@code n} connections made while the server is stopped (SIGSTOP), so one listen edge announces them all, each then sending 32 bytes. */
    public static List<Socket> burst(ServerProcess p, int n) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        signal(p, "STOP");
        try {
            for (int i = 0; i < n; i++) sockets.add(Echo.connect(p.address())); // the kernel completes them into the backlog
        } finally {
            signal(p, "CONT");
        }
        for (Socket s : sockets) s.getOutputStream().write(Echo.random(32, 7));
        return sockets;
    }

    /** The sockets whose 32-byte echo came back before a shared deadline. */
    public static List<Socket> echoedWithin(List<Socket> sockets, long timeoutMs) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        List<Socket> echoed = new ArrayList<>();
        byte[] expected = Echo.random(32, 7);
        for (Socket s : sockets) {
            s.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            try {
                assertThat(Echo.readExactly(s.getInputStream(), 32)).isEqualTo(expected);
                echoed.add(s);
            } catch (SocketTimeoutException stranded) {
                // no echo yet
            }
        }
        return echoed;
    }

    private static void signal(ServerProcess p, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -" + signal).isTrue();
        // kill returns once the signal is sent; a busy machine may run the loop thread a while
        // longer, and a connection it accepts then is one the burst did not strand.
        if (signal.equals("STOP")) awaitStopped(p.pid());
    }

    /** Waits (bounded) until every thread of {@code pid} is stopped ('T' in /proc/PID/task/TID/stat). */
    private static void awaitStopped(long pid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() - deadline < 0) {
            boolean all = true;
            try (DirectoryStream<Path> tasks =
                    Files.newDirectoryStream(Paths.get("/proc", Long.toString(pid), "task"))) {
                for (Path task : tasks) {
                    String stat = Files.readString(task.resolve("stat"));
                    char state = stat.charAt(stat.lastIndexOf(')') + 2);
                    if (state != 'T' && state != 't') all = false;
                }
            } catch (IOException threadGone) {
                all = false; // a thread ended while we looked: look again
            }
            if (all) return;
            Thread.sleep(5);
        }
        throw new AssertionError("process " + pid + " did not stop within 10 s");
    }

    /** Sends {@code n} bytes in one write; the bytes of their echo that come back before the timeout. */
    public static int echoedBytes(ServerProcess p, int n, int timeoutMs) throws IOException {
        try (Socket s = Echo.connect(p.address())) {
            byte[] payload = Echo.random(n, n);
            s.getOutputStream().write(payload);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            byte[] echo = new byte[n];
            int got = 0;
            try {
                while (got < n) {
                    s.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                    int r = s.getInputStream().read(echo, got, n - got);
                    if (r < 0) break;
                    got += r;
                }
            } catch (SocketTimeoutException stalled) {
                // what came back is the answer
            }
            assertThat(Arrays.copyOf(echo, got)).isEqualTo(Arrays.copyOf(payload, got));
            return got;
        }
    }

    /**
     * Selects the loop makes over ten stats intervals (about a second) while {@code n} accepted
     * connections send nothing. Counted between stats lines, not by the clock: the first is the
     * one after the line that shows every echo sent (a select is counted after its dispatch).
     */
    public static long wakeupsWhileIdle(ServerProcess p, int n) throws Exception {
        return wakeupsWhileIdle(p, n, 0);
    }

    /** As {@link #wakeupsWhileIdle(ServerProcess, int)}, on a server that has already sent {@code bytesBefore}. */
    public static long wakeupsWhileIdle(ServerProcess p, int n, long bytesBefore) throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Socket s = Echo.connect(p.address());
                idle.add(s);
                roundTrip(s, i); // accepted and served once: from now on it is idle
            }
            int echoed = 0;
            while (statsLine(p, echoed).get("bytes_out") < bytesBefore + 64L * n) echoed++;
            return statsLine(p, echoed + 11).get("selects") - statsLine(p, echoed + 1).get("selects");
        } finally {
            closeAll(idle);
        }
    }

    /**
     * A connection whose echo backs up: it sends {@code bytes} (a multiple of 64 KiB) and reads
     * nothing until its writes are held back, so that the server, its output pending, waits for
     * the socket to take it and stops reading; then it reads the whole echo. The connection is
     * added to {@code held}, open and idle from then on; returns the bytes echoed (all of them
     * unless the server stalled or failed).
     */
    public static long echoedAfterBackingUp(ServerProcess p, long bytes, List<Socket> held) throws Exception {
        Socket s = Echo.connect(p.address());
        held.add(s);
        return echoedAfterBackingUp(s, bytes);
    }

    /** As {@link #echoedAfterBackingUp(ServerProcess, long, List)}, on a connection of the caller's: once more on the same one. */
    public static long echoedAfterBackingUp(Socket s, long bytes) throws Exception {
        AtomicLong written = new AtomicLong();
        Thread writer = Echo.writeWithoutReading(s, bytes, written);
        Echo.awaitDoneOrHeldBack(written, bytes);
        byte[] buf = new byte[64 * 1024];
        long echoed = 0;
        try {
            InputStream in = s.getInputStream();
            for (int r; echoed < bytes && (r = in.read(buf)) >= 0; ) echoed += r;
        } catch (IOException stalledOrReset) {
            // what came back is the answer
        }
        writer.join(TimeUnit.SECONDS.toMillis(30));
        return echoed;
    }

    /** The server's {@code index}th {@code stats:} line (0 is the first), waiting for it (bounded), parsed. */
    private static Map<String, Long> statsLine(ServerProcess p, int index) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (p.linesContaining(CountersLine.STATS_PREFIX) <= index && System.nanoTime() < deadline) Thread.sleep(10);
        int seen = 0;
        for (String line : p.output().split("\n")) {
            if (line.startsWith(CountersLine.STATS_PREFIX) && seen++ == index) return CountersLine.parse(line);
        }
        throw new AssertionError("no stats line " + index + " in:\n" + p.output());
    }

    /** {@code connections} connections, {@code rounds} rounds of one echo each in turn; returns the requests made. */
    public static int roundRobinEchoes(ServerProcess p, int connections, int rounds) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) sockets.add(Echo.connect(p.address()));
            for (int r = 0; r < rounds; r++) {
                for (Socket s : sockets) roundTrip(s, r);
            }
            return connections * rounds;
        } finally {
            closeAll(sockets);
        }
    }

    /** 150 connections against a server limited to 64 descriptors, held about a second, then closed; it must still serve. */
    public static void outOfDescriptors(ServerProcess p) throws Exception {
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < 150; i++) flood.add(Echo.connect(p.address()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (p.linesContaining(" failed (") == 0 && System.nanoTime() < deadline) Thread.sleep(20);
            Thread.sleep(1000);
        } finally {
            closeAll(flood);
        }
        byte[] payload = Echo.random(1000, 3);
        assertThat(Echo.roundTrip(p.address(), payload, 1000, 3)).as("served once descriptors are free").isEqualTo(payload);
    }

    /** Resident memory gained while one client sends {@code bytes} and never reads (until it is done or held back). */
    public static long rssGrowthWhileAClientSendsWithoutReading(ServerProcess p, long bytes) throws Exception {
        try (Socket warm = Echo.connect(p.address())) {
            roundTrip(warm, 1);
        }
        long before = Proc.rssBytes(p.pid());
        AtomicLong written = new AtomicLong();
        try (Socket hog = Echo.connect(p.address())) {
            Echo.writeWithoutReading(hog, bytes, written);
            Echo.awaitDoneOrHeldBack(written, bytes);
            Thread.sleep(300); // the server reads what the kernel still holds
            return Proc.rssBytes(p.pid()) - before;
        }
    }

    /** {@code clients} threads, each with one connection, echoing {@code requests} times with 10 ms between: together more than 1000 a second. */
    public static void pacedClients(ServerProcess p, int clients, int requests) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                done.add(pool.submit(() -> {
                    try (Socket s = Echo.connect(p.address())) {
                        for (int i = 0; i < requests; i++) {
                            roundTrip(s, i);
                            Thread.sleep(10);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get(40, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    public static double eventsPerWait(ServerProcess p) {
        String waits = p.label().startsWith("lt") ? "selects" : "epoll_waits";
        return (double) Proc.counter(p, "events") / Proc.counter(p, waits);
    }

    /** {@code requests} GET /ping on one connection; how many responses took more than one read to arrive whole. */
    public static int responsesInTwoReads(ServerProcess p, int requests) throws IOException {
        byte[] expected = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + HttpPing.BODY.length()
                + "\r\n\r\n" + HttpPing.BODY).getBytes(StandardCharsets.US_ASCII);
        byte[] request = Http.ascii(Http.get("/ping"));
        try (Socket s = Echo.connect(p.address())) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            byte[] response = new byte[expected.length];
            int split = 0;
            for (int i = 0; i < requests; i++) {
                out.write(request);
                int got = in.read(response);
                if (got < expected.length) split++;
                while (got < expected.length) {
                    int r = in.read(response, got, expected.length - got);
                    if (r < 0) throw new IOException("closed after " + got + " bytes");
                    got += r;
                }
                assertThat(response).isEqualTo(expected);
            }
            return split;
        }
    }

    /** Per connection: wakeups of the server's loop threads, and how many of its loops woke. */
    public record Wakeups(double wakeups, double loops) {
        @Override
        public String toString() {
            return String.format("%.2f loop wakeups and %.2f loops woken per connection", wakeups, loops);
        }
    }

    /**
     * {@code n} short connections one after another, each over once the server has closed its
     * socket (its descriptors are back to what they were): the loop threads' wakeups, and the
     * loops that woke, for each.
     */
    public static Wakeups loopWakeupsPerConnection(ServerProcess p, int n) throws Exception {
        byte[] payload = Echo.random(64, 1);
        long wakeups = 0;
        int loops = 0;
        for (int i = 0; i < n; i++) {
            long fds = Proc.fds(p.pid());
            Map<String, Long> before = Proc.voluntarySwitchesByThread(p.pid(), "java", "loop");
            assertThat(Echo.roundTrip(p.address(), payload, 64, 1)).isEqualTo(payload);
            Proc.awaitFdsAtMost(List.of(p.pid()), fds, 5_000);
            for (Map.Entry<String, Long> loop : Proc.voluntarySwitchesByThread(p.pid(), "java", "loop").entrySet()) {
                long woke = loop.getValue() - before.getOrDefault(loop.getKey(), loop.getValue());
                wakeups += woke;
                if (woke > 0) loops++;
            }
        }
        return new Wakeups((double) wakeups / n, (double) loops / n);
    }

    /** One counter from each {@code [loopN] counters:} line, in loop order. */
    public static long[] perLoop(ServerProcess p, String name) {
        List<Long> values = new ArrayList<>();
        Matcher m = LOOP_COUNTERS.matcher(p.output());
        while (m.find()) values.add(CountersLine.parse(m.group(1)).getOrDefault(name, -1L));
        assertThat(values).as(p.output()).isNotEmpty().doesNotContain(-1L);
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    public static void roundTrip(Socket s, long seed) throws IOException {
        byte[] payload = Echo.random(64, seed);
        s.getOutputStream().write(payload);
        assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
    }

    public static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket s : sockets) s.close();
    }
}
