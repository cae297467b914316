package niolab.server;

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
import niolab.server.base.Mistake;
import niolab.server.base.Mistakes;
import niolab.server.base.ServerOptions;
import niolab.server.proto.HttpPing;
import niolab.server.testing.ClosingExchange;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.Proc;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every {@code --mistake} shows its symptom beside the correct server in the same scenario: the
 * correct one passes, the broken one shows the symptom, so no switch can rot into a no-op. The
 * symptoms are counts (connections echoed, bytes, wakeups, log lines, reads per response,
 * resident memory), never timings; the delays they cause are measured by exp-mistakes.
 *
 * <p>Each scenario starts the broken server and its correct twin at once, as child JVMs on port
 * 0. Every wait is bounded and every process is stopped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MistakesTest {
    private static final long MIB = 1 << 20;
    private static final Pattern LOOP_COUNTERS = Pattern.compile("(?m)^\\[loop\\d+\\] counters: (.*)$");

    @Test
    void acceptOnceStrandsTheRestOfABurstInTheBacklog() throws Exception {
        try (Twins t = twins(List.of(), List.of("et"), "--mistake", "accept-once")) {
            assertThat(t.broken.label()).isEqualTo("et, echo, mistake: accept-once");
            List<Socket> correct = burst(t.correct, 50);
            List<Socket> broken = burst(t.broken, 50);
            try {
                assertThat(echoedWithin(correct, 10_000)).as("burst connections echoed by the correct server").hasSize(50);
                List<Socket> stranded = new ArrayList<>(broken);
                stranded.removeAll(echoedWithin(broken, 1_000));
                assertThat(stranded).as("burst connections left in the backlog by accept-once").hasSizeGreaterThan(40);
                // They wait in the backlog, not lost: a new connection raises a new edge, and the next of them gets in.
                try (Socket late = Echo.connect(t.broken.address())) {
                    assertThat(echoedWithin(stranded.subList(0, 1), 10_000)).as("the oldest stranded one, after a new edge").hasSize(1);
                }
            } finally {
                closeAll(correct);
                closeAll(broken);
            }
        }
    }

    @Test
    void readOnceStallsAnEchoLongerThanOneRead() throws Exception {
        try (Twins t = twins(List.of(), List.of("et", "--buffer-size", "16"), "--mistake", "read-once")) {
            assertThat(echoedBytes(t.correct, 64, 10_000)).as("bytes echoed by the correct server").isEqualTo(64);
            assertThat(echoedBytes(t.broken, 64, 2_000)).as("bytes echoed by read-once: one 16-byte read, then no edge").isEqualTo(16);
        }
    }

    @Test
    void standingWriteWakesTheLoopWhileEveryConnectionIsIdle() throws Exception {
        try (Twins t = twins(List.of(), List.of("lt", "--stats-interval", "100ms"), "--mistake", "standing-write")) {
            long correct = wakeupsWhileIdle(t.correct, 50);
            long broken = wakeupsWhileIdle(t.broken, 50);
            System.out.printf("standing-write: selects in a second with 50 idle connections: %d (correct %d)%n", broken, correct);
            assertThat(correct).as("selects of the correct server while its 50 connections idle").isLessThan(50);
            assertThat(broken).as("selects with OP_WRITE standing on 50 idle connections").isGreaterThan(1000);
        }
    }

    @Test
    void keysNotRemovedHandlesStaleKeysAfterEverySelect() throws Exception {
        try (Twins t = twins(List.of(), List.of("lt"), "--mistake", "keys-not-removed")) {
            int requests = roundRobinEchoes(t.correct, 20, 50);
            roundRobinEchoes(t.broken, 20, 50);
            stop(t);
            long correct = Proc.counter(t.correct, "reads_eagain");
            long broken = Proc.counter(t.broken, "reads_eagain");
            System.out.printf("keys-not-removed: reads that found nothing over %d requests: %d (correct %d)%n", requests, broken, correct);
            assertThat(correct).as("reads that found nothing, correct server").isLessThan(50);
            assertThat(broken).as("reads that found nothing: stale keys handled again").isGreaterThan(requests);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void noAcceptBackoffSpinsAndLogsEveryFailure(String arch) throws Exception {
        try (Twins t = twins(List.of("prlimit", "--nofile=64:64"), List.of(arch), "--mistake", "no-accept-backoff")) {
            outOfDescriptors(t.correct);
            outOfDescriptors(t.broken);
            stop(t);
            int correctLines = t.correct.linesContaining(" failed (");
            int brokenLines = t.broken.linesContaining(" failed (");
            long brokenFailures = Proc.counter(t.broken, "accept_failures");
            System.out.printf("%s no-accept-backoff: %d accept failures, %d log lines (correct: %d, %d)%n", arch,
                    brokenFailures, brokenLines, Proc.counter(t.correct, "accept_failures"), correctLines);
            assertThat(correctLines).as("the correct server logs the episode once").isEqualTo(1);
            assertThat(Proc.counter(t.correct, "accept_failures")).as("retries every 100 ms").isLessThan(200);
            assertThat(brokenFailures).as("accept retried at once").isGreaterThan(1000);
            assertThat(brokenLines).as("a log line per failure").isGreaterThan(1000);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void unboundedOutputGrowsWithWhatAClientSendsWithoutReading(String arch) throws Exception {
        try (Twins t = twins(List.of(), List.of(arch), "--mistake", "unbounded-output")) {
            long correct = rssGrowthWhileAClientSendsWithoutReading(t.correct, 64 * MIB);
            long broken = rssGrowthWhileAClientSendsWithoutReading(t.broken, 64 * MIB);
            System.out.printf("%s unbounded-output: RSS grew %d MiB for 64 MiB sent and never read (correct %d MiB)%n",
                    arch, broken / MIB, correct / MIB);
            assertThat(correct).as("RSS growth of the correct server").isLessThan(16 * MIB);
            assertThat(broken).as("RSS growth while output is queued without bound").isGreaterThan(48 * MIB);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void blockingOnLoopMakesEveryConnectionWaitForTheOthers(String arch) throws Exception {
        try (Twins t = twins(List.of(), List.of(arch), "--mistake", "blocking-on-loop")) {
            int clients = 40;
            pacedClients(t.correct, clients, 40);
            pacedClients(t.broken, clients, 40);
            stop(t);
            double correct = eventsPerWait(t.correct);
            double broken = eventsPerWait(t.broken);
            System.out.printf("%s blocking-on-loop: %.2f events per wait with %d paced clients (correct %.2f)%n", arch, broken, clients, correct);
            // While the loop sleeps, every other client's request arrives: each wait then finds nearly all of them ready.
            assertThat(broken).as("events per wait: connections that waited for one another").isGreaterThan(0.2 * clients);
            assertThat(correct).as("events per wait of the correct server").isLessThan(broken / 2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void nagleHoldsEachResponseBodyBackFromItsHeaders(String arch) throws Exception {
        try (Twins t = twins(List.of(), List.of(arch, "--protocol", "http"), "--mistake", "nagle")) {
            int requests = 20;
            int correct = responsesInTwoReads(t.correct, requests);
            int broken = responsesInTwoReads(t.broken, requests);
            stop(t);
            assertThat(Proc.counter(t.correct, "writes")).as("writes of the correct server").isEqualTo(requests);
            assertThat(Proc.counter(t.broken, "writes")).as("writes: headers, then body").isEqualTo(2L * requests);
            assertThat(correct).as("responses that came in two reads from the correct server").isZero();
            // The body waits for the ACK of the headers, which the client delays: it reads the headers alone first.
            assertThat(broken).as("responses whose body came after its headers").isGreaterThanOrEqualTo(requests / 2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void herdWakesEveryLoopWhereSoReusePortWakesOne(String arch) throws Exception {
        try (Twins t = twins(List.of(), List.of(arch, "--loops", "4"), "--mistake", "herd")) {
            assertThat(t.broken.label()).isEqualTo(arch + ", 4 loops, echo, mistake: herd");
            int connections = 100;
            Wakeups correct = loopWakeupsPerConnection(t.correct, connections);
            Wakeups broken = loopWakeupsPerConnection(t.broken, connections);
            stop(t);
            System.out.printf("%s herd: %s, empty accepts %s, accepts %s (SO_REUSEPORT: %s, %s, %s)%n", arch, broken,
                    Arrays.toString(perLoop(t.broken, "empty_accepts")), Arrays.toString(perLoop(t.broken, "accepts")), correct,
                    Arrays.toString(perLoop(t.correct, "empty_accepts")), Arrays.toString(perLoop(t.correct, "accepts")));
            assertThat(Arrays.stream(perLoop(t.broken, "accepts")).sum()).as("accepts of the server with --mistake herd").isEqualTo(connections);
            assertThat(Arrays.stream(perLoop(t.correct, "empty_accepts")).sum()).as("accepts that found nothing, the correct server (a listener per loop)").isZero();
            assertThat(correct.loops).as("loops woken per connection, a listener per loop").isLessThan(1.5);
            // Each connection wakes the idle loops too, for nothing: on average at least one more wakeup per connection.
            assertThat(broken.loops).as("loops woken per connection with --mistake herd (one listener for all loops), against the correct server's").isGreaterThan(correct.loops + 1);
            assertThat(broken.wakeups).as("loop wakeups per connection, one listener for all loops").isGreaterThan(correct.wakeups + 1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void noLingerLetsAResetReachTheClientOfALargeHead(String arch) throws Exception {
        try (Twins t = twins(List.of(), List.of(arch, "--protocol", "http"), "--mistake", "no-linger")) {
            assertThat(t.broken.label()).isEqualTo(arch + ", http, mistake: no-linger");
            int tries = 10;
            int brokenSeen = 0;
            for (int size : new int[] {300_000, 1_000_000}) {
                for (boolean during : new boolean[] {false, true}) {
                    int correct = resetsSeen(t.correct, size, during, tries);
                    int broken = resetsSeen(t.broken, size, during, tries);
                    System.out.printf("%s no-linger: %d-byte head read %s the write: a reset or no 431 in %d of %d (lingering: %d)%n",
                            arch, size, during ? "during" : "after", broken, tries, correct);
                    assertThat(correct).as("resets seen with the linger, %d-byte head", size).isZero();
                    brokenSeen += broken;
                }
            }
            // Closed on unread bytes, the socket sends a reset: it fails the client's write, or makes its kernel drop the 431.
            assertThat(brokenSeen).as("exchanges that met a reset without the linger").isGreaterThan(0);
        }
    }

    /**
     * Of {@code tries} heads of {@code size} bytes, each sent in one write and read after it or
     * {@code during} it, in how many the client did not get a whole 431 and end of stream, or its write met a reset.
     */
    private static int resetsSeen(ServerProcess p, int size, boolean during, int tries) throws Exception {
        int seen = 0;
        for (int i = 0; i < tries; i++) {
            ClosingExchange.Result r = ClosingExchange.run(p.address(), ClosingExchange.oversizeHead(size), during);
            if (r.outcome() != ClosingExchange.Outcome.ANSWER_THEN_EOF || r.status() != 431 || r.writer() != null) seen++;
        }
        return seen;
    }

    @Test
    void epollExclusiveWakesOneLoopPerConnectionOnASharedListener() throws Exception {
        try (ServerProcess p = ServerProcess.start("et", "--loops", "4", "--mistake", "herd", "--epoll-exclusive")) {
            assertThat(p.label()).isEqualTo("et, 4 loops, echo, mistake: herd, epoll-exclusive");
            int connections = 100;
            Wakeups woken = loopWakeupsPerConnection(p, connections);
            assertThat(p.terminate(30)).isZero();
            System.out.printf("et herd, EPOLLEXCLUSIVE: %s, empty accepts %s, accepts %s%n",
                    woken, Arrays.toString(perLoop(p, "empty_accepts")), Arrays.toString(perLoop(p, "accepts")));
            assertThat(Arrays.stream(perLoop(p, "accepts")).sum()).isEqualTo(connections);
            assertThat(woken.loops).as("loops woken per connection, EPOLLEXCLUSIVE on the shared listener").isLessThan(1.5);
        }
    }

    @Test
    void aMistakeTheArchitectureCannotMakeIsOneLineAndExitTwoAndMpForwardsTheRest() throws Exception {
        try (ServerProcess refused = ServerProcess.launch(List.of(), List.of("lt", "--mistake", "accept-once", "--port", "0"));
             ServerProcess mp = ServerProcess.start("mp", "--workers", "1", "--mistake", "keys-not-removed")) {
            assertThat(mp.label()).as("the worker's ready line").isEqualTo("mp: 1 x lt, echo, mistake: keys-not-removed");
            assertThat(refused.awaitExit(30)).isEqualTo(2);
            assertThat(refused.output().trim()).isEqualTo("error: --mistake accept-once breaks et, not lt (--help lists the mistakes)");
        }
        assertThat(refusal("et", "--mistake", "herd")).isEqualTo("--mistake herd needs --loops 2 or more: it shares one listener among the loops");
        assertThat(refusal("mp", "--worker-arch", "et", "--mistake", "standing-write"))
                .isEqualTo("--mistake standing-write breaks lt, not et (--help lists the mistakes)");
        assertThat(refusal("et", "--mistake", "nagle")).isEqualTo("--mistake nagle shows with --protocol http, not echo");
        assertThat(refusal("lt", "--loops", "2", "--mistake", "herd", "--epoll-exclusive")).startsWith("--epoll-exclusive registers");
        assertThat(refusal("et", "--loops", "2", "--mistake", "herd", "--epoll-exclusive")).isNull();
        assertThat(refusal("et", "--mistake", "accept-once", "--mistake", "read-once", "--protocol", "http")).isNull();
    }

    /** What {@link Mistakes#check} says of a command line (mp: of its workers' architecture). */
    private static String refusal(String... args) {
        picocli.CommandLine.ParseResult parsed = LabServer.commandLine(args).parseArgs(args);
        ServerOptions options = (ServerOptions) parsed.subcommand().commandSpec().mixins().get("options").userObject();
        String arch = args[0].equals("mp") ? args[Arrays.asList(args).indexOf("--worker-arch") + 1] : args[0];
        return Mistakes.check(options, arch);
    }

    @Test
    void helpListsTheMistakesOfEachArchitectureOneLineEach() {
        picocli.CommandLine cl = LabServer.commandLine();
        for (String arch : List.of("lt", "et")) {
            String help = cl.getSubcommands().get(arch).getUsageMessage();
            for (Mistake m : Mistake.values()) {
                String line = String.format("  %-17s %s%n", m.label, m.description);
                if (m.appliesTo(arch)) assertThat(help).as(arch + " --help").contains(line);
                else assertThat(help).as(arch + " --help").doesNotContain("  " + m.label + " ");
            }
        }
    }

    // ---- the broken server and its correct twin

    /** A broken server and its correct twin: the same command line but for the mistake. */
    private record Twins(ServerProcess broken, ServerProcess correct) implements AutoCloseable {
        @Override
        public void close() {
            broken.close();
            correct.close();
        }
    }

    /** Starts {@code prefix args --port 0} and the same with {@code mistake}, at once (two JVMs start in about the time of one). */
    private static Twins twins(List<String> prefix, List<String> args, String... mistake) throws Exception {
        ExecutorService starter = Executors.newSingleThreadExecutor();
        try {
            Future<ServerProcess> broken = starter.submit(() -> ServerProcess.startExactly(prefix, append(append(args, mistake), "--port", "0")));
            ServerProcess correct;
            try {
                correct = ServerProcess.startExactly(prefix, append(args, "--port", "0"));
            } catch (Exception e) {
                broken.get(90, TimeUnit.SECONDS).close();
                throw e;
            }
            try {
                return new Twins(broken.get(90, TimeUnit.SECONDS), correct);
            } catch (Exception e) {
                correct.close();
                throw e;
            }
        } finally {
            starter.shutdown();
        }
    }

    private static List<String> append(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all;
    }

    /** SIGTERM to both; each must exit 0 and print its counters. */
    private static void stop(Twins t) throws InterruptedException {
        assertThat(t.correct.terminate(30)).as("the correct server stops gracefully; it said:\n%s", t.correct.output()).isZero();
        assertThat(t.broken.terminate(30)).as("the broken server still stops gracefully").isZero();
    }

    // ---- scenarios

    /** {@code n} connections made while the server is stopped (SIGSTOP), so one listen edge announces them all, each then sending 32 bytes. */
    private static List<Socket> burst(ServerProcess p, int n) throws Exception {
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
    private static List<Socket> echoedWithin(List<Socket> sockets, long timeoutMs) throws IOException {
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
    private static int echoedBytes(ServerProcess p, int n, int timeoutMs) throws IOException {
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
    private static long wakeupsWhileIdle(ServerProcess p, int n) throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Socket s = Echo.connect(p.address());
                idle.add(s);
                roundTrip(s, i); // accepted and served once: from now on it is idle
            }
            int echoed = 0;
            while (statsLine(p, echoed).get("bytes_out") < 64L * n) echoed++;
            return statsLine(p, echoed + 11).get("selects") - statsLine(p, echoed + 1).get("selects");
        } finally {
            closeAll(idle);
        }
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
    private static int roundRobinEchoes(ServerProcess p, int connections, int rounds) throws IOException {
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
    private static void outOfDescriptors(ServerProcess p) throws Exception {
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
    private static long rssGrowthWhileAClientSendsWithoutReading(ServerProcess p, long bytes) throws Exception {
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
    private static void pacedClients(ServerProcess p, int clients, int requests) throws Exception {
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

    private static double eventsPerWait(ServerProcess p) {
        String waits = p.label().startsWith("lt") ? "selects" : "epoll_waits";
        return (double) Proc.counter(p, "events") / Proc.counter(p, waits);
    }

    /** {@code requests} GET /ping on one connection; how many responses took more than one read to arrive whole. */
    private static int responsesInTwoReads(ServerProcess p, int requests) throws IOException {
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
    private record Wakeups(double wakeups, double loops) {
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
    private static Wakeups loopWakeupsPerConnection(ServerProcess p, int n) throws Exception {
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
    private static long[] perLoop(ServerProcess p, String name) {
        List<Long> values = new ArrayList<>();
        Matcher m = LOOP_COUNTERS.matcher(p.output());
        while (m.find()) values.add(CountersLine.parse(m.group(1)).getOrDefault(name, -1L));
        assertThat(values).as(p.output()).isNotEmpty().doesNotContain(-1L);
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    private static void roundTrip(Socket s, long seed) throws IOException {
        byte[] payload = Echo.random(64, seed);
        s.getOutputStream().write(payload);
        assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
    }

    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket s : sockets) s.close();
    }
}
