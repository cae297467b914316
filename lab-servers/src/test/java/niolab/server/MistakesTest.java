package niolab.server;

import static niolab.server.testing.Symptoms.burst;
import static niolab.server.testing.Symptoms.closeAll;
import static niolab.server.testing.Symptoms.echoedBytes;
import static niolab.server.testing.Symptoms.echoedWithin;
import static niolab.server.testing.Symptoms.eventsPerWait;
import static niolab.server.testing.Symptoms.loopWakeupsPerConnection;
import static niolab.server.testing.Symptoms.outOfDescriptors;
import static niolab.server.testing.Symptoms.pacedClients;
import static niolab.server.testing.Symptoms.perLoop;
import static niolab.server.testing.Symptoms.resetsSeen;
import static niolab.server.testing.Symptoms.responsesInTwoReads;
import static niolab.server.testing.Symptoms.roundRobinEchoes;
import static niolab.server.testing.Symptoms.rssGrowthWhileAClientSendsWithoutReading;
import static niolab.server.testing.Symptoms.echoedAfterBackingUp;
import static niolab.server.testing.Symptoms.wakeupsWhileIdle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.BindException;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.base.Arch;
import niolab.server.base.Mistake;
import niolab.server.base.Mistakes;
import niolab.server.testing.Alone;
import niolab.server.testing.Echo;
import niolab.server.testing.Proc;
import niolab.server.testing.ServerProcess;
import niolab.server.testing.Symptoms.Wakeups;
import niolab.server.testing.Twins;
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
 * <p>Each scenario starts the broken server and its correct twin at once ({@link Twins}); the
 * scenarios and their measures are in {@link niolab.server.testing.Symptoms}. Every wait is
 * bounded and every process is stopped. The symptoms that are a loop's use of the CPU run
 * after lab-servers' other tests, alone ({@link Alone}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MistakesTest {
    private static final long MIB = 1 << 20;
    /** More than a client's receive buffer and a server's send buffer hold on loopback: the server's output backs up. */
    private static final long BACKED_UP = 32 * MIB;

    @Test
    void acceptOnceStrandsTheRestOfABurstInTheBacklog() throws Exception {
        try (Twins t = Twins.start(List.of(), List.of("et"), "--mistake", "accept-once")) {
            assertThat(t.broken().label()).isEqualTo("et, echo, mistake: accept-once");
            List<Socket> correct = burst(t.correct(), 50);
            List<Socket> broken = burst(t.broken(), 50);
            try {
                assertThat(echoedWithin(correct, 10_000)).as("burst connections echoed by the correct server").hasSize(50);
                List<Socket> stranded = new ArrayList<>(broken);
                stranded.removeAll(echoedWithin(broken, 1_000));
                assertThat(stranded).as("burst connections left in the backlog by accept-once").hasSizeGreaterThan(40);
                // They wait in the backlog, not lost: a new connection raises a new edge, and the next of them gets in.
                try (Socket late = Echo.connect(t.broken().address())) {
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
        try (Twins t = Twins.start(List.of(), List.of("et", "--buffer-size", "16"), "--mistake", "read-once")) {
            assertThat(echoedBytes(t.correct(), 64, 10_000)).as("bytes echoed by the correct server").isEqualTo(64);
            assertThat(echoedBytes(t.broken(), 64, 2_000)).as("bytes echoed by read-once: one 16-byte read, then no edge").isEqualTo(16);
        }
    }

    @Test
    void standingWriteWakesTheLoopWhileEveryConnectionIsIdle() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (Twins t = Twins.start(List.of(), List.of("lt", "--stats-interval", "100ms"), "--mistake", "standing-write")) {
            // One connection first has its output back up and drain, so that the idle loop below
            // shows whether resumeReading gave OP_WRITE back.
            assertThat(echoedAfterBackingUp(t.correct(), BACKED_UP, held))
                    .as("bytes the correct server echoed to a client that read nothing until its output backed up").isEqualTo(BACKED_UP);
            long correct = wakeupsWhileIdle(t.correct(), 50, BACKED_UP);
            long broken = wakeupsWhileIdle(t.broken(), 50);
            System.out.printf("standing-write: selects in a second with 50 idle connections: %d (correct %d)%n", broken, correct);
            assertThat(correct).as("selects of the correct server while its 51 connections idle, one of them backed up before").isLessThan(50);
            assertThat(broken).as("selects with OP_WRITE standing on 50 idle connections").isGreaterThan(1000);
        } finally {
            closeAll(held);
        }
    }

    /**
     * The mistake stands again after a backed-up echo has drained: resumeReading gives back the
     * ops the connection was accepted with (readingOps), so one idle connection keeps the loop
     * awake; a hard-coded OP_READ would quietly cure the mistake after its first backed-up echo.
     */
    @Test
    void standingWriteStandsAgainOnceABackedUpEchoHasDrained() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerProcess p = ServerProcess.start("lt", "--stats-interval", "100ms", "--mistake", "standing-write")) {
            assertThat(echoedAfterBackingUp(p, BACKED_UP, held))
                    .as("bytes echoed by --mistake standing-write to a client that read nothing until its output backed up").isEqualTo(BACKED_UP);
            long selects = wakeupsWhileIdle(p, 0, BACKED_UP);
            System.out.printf("standing-write: selects in a second with one idle connection, backed up before: %d%n", selects);
            assertThat(selects).as("selects while the one connection, its echo drained, idles: OP_WRITE given back by resumeReading")
                    .isGreaterThan(1000);
        } finally {
            closeAll(held);
        }
    }

    @Test
    void keysNotRemovedHandlesStaleKeysAfterEverySelect() throws Exception {
        try (Twins t = Twins.start(List.of(), List.of("lt"), "--mistake", "keys-not-removed")) {
            int requests = roundRobinEchoes(t.correct(), 20, 50);
            roundRobinEchoes(t.broken(), 20, 50);
            t.stop();
            long correct = Proc.counter(t.correct(), "reads_eagain");
            long broken = Proc.counter(t.broken(), "reads_eagain");
            System.out.printf("keys-not-removed: reads that found nothing over %d requests: %d (correct %d)%n", requests, broken, correct);
            assertThat(correct).as("reads that found nothing, correct server").isLessThan(50);
            assertThat(broken).as("reads that found nothing: stale keys handled again").isGreaterThan(requests);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void noAcceptBackoffSpinsAndLogsEveryFailure(String arch) throws Exception {
        try (Twins t = Twins.start(List.of("prlimit", "--nofile=64:64"), List.of(arch), "--mistake", "no-accept-backoff")) {
            outOfDescriptors(t.correct());
            outOfDescriptors(t.broken());
            t.stop();
            int correctLines = t.correct().linesContaining(" failed (");
            int brokenLines = t.broken().linesContaining(" failed (");
            long brokenFailures = Proc.counter(t.broken(), "accept_failures");
            System.out.printf("%s no-accept-backoff: %d accept failures, %d log lines (correct: %d, %d)%n", arch,
                    brokenFailures, brokenLines, Proc.counter(t.correct(), "accept_failures"), correctLines);
            assertThat(correctLines).as("the correct server logs the episode once").isEqualTo(1);
            assertThat(Proc.counter(t.correct(), "accept_failures")).as("retries every 100 ms").isLessThan(200);
            assertThat(brokenFailures).as("accept retried at once").isGreaterThan(1000);
            assertThat(brokenLines).as("a log line per failure").isGreaterThan(1000);
        }
    }

    @Test
    void unboundedOutputGrowsWithWhatAClientSendsWithoutReadingOnLt() throws Exception {
        unboundedOutputGrowsWithWhatAClientSendsWithoutReading("lt");
    }

    /** Apart from lt's: et's read loop is lab 3's region, and it keeps the mistake's branch. */
    @Test
    void unboundedOutputGrowsWithWhatAClientSendsWithoutReadingOnEt() throws Exception {
        unboundedOutputGrowsWithWhatAClientSendsWithoutReading("et");
    }

    private static void unboundedOutputGrowsWithWhatAClientSendsWithoutReading(String arch) throws Exception {
        try (Twins t = Twins.start(List.of(), List.of(arch), "--mistake", "unbounded-output")) {
            long correct = rssGrowthWhileAClientSendsWithoutReading(t.correct(), 64 * MIB);
            long broken = rssGrowthWhileAClientSendsWithoutReading(t.broken(), 64 * MIB);
            System.out.printf("%s unbounded-output: RSS grew %d MiB for 64 MiB sent and never read (correct %d MiB)%n",
                    arch, broken / MIB, correct / MIB);
            assertThat(correct).as("RSS growth of the correct server").isLessThan(16 * MIB);
            assertThat(broken).as("RSS growth while output is queued without bound").isGreaterThan(48 * MIB);
        }
    }

    @Alone
    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void blockingOnLoopMakesEveryConnectionWaitForTheOthers(String arch) throws Exception {
        try (Twins t = Twins.start(List.of(), List.of(arch), "--mistake", "blocking-on-loop")) {
            int clients = 40;
            pacedClients(t.correct(), clients, 40);
            pacedClients(t.broken(), clients, 40);
            t.stop();
            double correct = eventsPerWait(t.correct());
            double broken = eventsPerWait(t.broken());
            System.out.printf("%s blocking-on-loop: %.2f events per wait with %d paced clients (correct %.2f)%n", arch, broken, clients, correct);
            // While the loop sleeps, every other client's request arrives: each wait then finds nearly all of them ready.
            assertThat(broken).as("events per wait: connections that waited for one another").isGreaterThan(0.2 * clients);
            assertThat(correct).as("events per wait of the correct server").isLessThan(broken / 2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void nagleHoldsEachResponseBodyBackFromItsHeaders(String arch) throws Exception {
        try (Twins t = Twins.start(List.of(), List.of(arch, "--protocol", "http"), "--mistake", "nagle")) {
            int requests = 20;
            int correct = responsesInTwoReads(t.correct(), requests);
            int broken = responsesInTwoReads(t.broken(), requests);
            t.stop();
            assertThat(Proc.counter(t.correct(), "writes")).as("writes of the correct server").isEqualTo(requests);
            assertThat(Proc.counter(t.broken(), "writes")).as("writes: headers, then body").isEqualTo(2L * requests);
            assertThat(correct).as("responses that came in two reads from the correct server").isZero();
            // The body waits for the ACK of the headers, which the client delays: it reads the headers alone first.
            assertThat(broken).as("responses whose body came after its headers").isGreaterThanOrEqualTo(requests / 2);
        }
    }

    @Alone
    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void herdWakesEveryLoopWhereSoReusePortWakesOne(String arch) throws Exception {
        try (Twins t = Twins.start(List.of(), List.of(arch, "--loops", "4"), "--mistake", "herd")) {
            assertThat(t.broken().label()).isEqualTo(arch + ", 4 loops, echo, mistake: herd");
            int connections = 100;
            Wakeups correct = loopWakeupsPerConnection(t.correct(), connections);
            Wakeups broken = loopWakeupsPerConnection(t.broken(), connections);
            t.stop();
            System.out.printf("%s herd: %s, empty accepts %s, accepts %s (SO_REUSEPORT: %s, %s, %s)%n", arch, broken,
                    Arrays.toString(perLoop(t.broken(), "empty_accepts")), Arrays.toString(perLoop(t.broken(), "accepts")), correct,
                    Arrays.toString(perLoop(t.correct(), "empty_accepts")), Arrays.toString(perLoop(t.correct(), "accepts")));
            assertThat(Arrays.stream(perLoop(t.broken(), "accepts")).sum()).as("accepts of the server with --mistake herd").isEqualTo(connections);
            assertThat(Arrays.stream(perLoop(t.correct(), "empty_accepts")).sum()).as("accepts that found nothing, the correct server (a listener per loop)").isZero();
            assertThat(correct.loops()).as("loops woken per connection, a listener per loop").isLessThan(1.5);
            // Each connection wakes the idle loops too, for nothing: on average at least one more wakeup per connection.
            assertThat(broken.loops()).as("loops woken per connection with --mistake herd (one listener for all loops), against the correct server's").isGreaterThan(correct.loops() + 1);
            assertThat(broken.wakeups()).as("loop wakeups per connection, one listener for all loops").isGreaterThan(correct.wakeups() + 1);
        }
    }

    /**
     * Under --mistake herd the loops share one listener without SO_REUSEPORT, as servers did
     * before it: the port is then no group, and another socket asking to join it is refused.
     * Left on, the option would let any process of the same user bind the port beside the
     * server and take a share of its connections.
     */
    @Test
    void herdLeavesSoReusePortOffSoNoOtherSocketJoinsThePort() throws Exception {
        try (ServerProcess p = ServerProcess.start("lt", "--loops", "2", "--mistake", "herd");
             ServerSocketChannel other = ServerSocketChannel.open()) {
            other.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            assertThat(catchThrowable(() -> other.bind(p.address())))
                    .as("what a socket with SO_REUSEPORT met binding the port of --mistake herd's one listener (null: it joined)")
                    .isInstanceOf(BindException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lt", "et"})
    void noLingerLetsAResetReachTheClientOfALargeHead(String arch) throws Exception {
        try (Twins t = Twins.start(List.of(), List.of(arch, "--protocol", "http"), "--mistake", "no-linger")) {
            assertThat(t.broken().label()).isEqualTo(arch + ", http, mistake: no-linger");
            int tries = 10;
            int brokenSeen = 0;
            for (int size : new int[] {300_000, 1_000_000}) {
                for (boolean during : new boolean[] {false, true}) {
                    int correct = resetsSeen(t.correct(), size, during, tries);
                    int broken = resetsSeen(t.broken(), size, during, tries);
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

    @Alone
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
            assertThat(woken.loops()).as("loops woken per connection, EPOLLEXCLUSIVE on the shared listener").isLessThan(1.5);
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
        assertThat(refusal("et", "--loops", "2", "--epoll-exclusive")).startsWith("--epoll-exclusive registers");
        // lt's Selector cannot ask for EPOLLEXCLUSIVE: its parser has no such option (ServerCatalogCliTest sees the one line)
        assertThatThrownBy(() -> refusal("lt", "--loops", "2", "--mistake", "herd", "--epoll-exclusive"))
                .isInstanceOf(picocli.CommandLine.UnmatchedArgumentException.class);
        assertThat(refusal("et", "--loops", "2", "--mistake", "herd", "--epoll-exclusive")).isNull();
        assertThat(refusal("et", "--mistake", "accept-once", "--mistake", "read-once", "--protocol", "http")).isNull();
    }

    /** What {@link Mistakes#check} says of a command line (mp: of its workers' architecture). */
    private static String refusal(String... args) {
        String arch = args[0].equals("mp") ? args[Arrays.asList(args).indexOf("--worker-arch") + 1] : args[0];
        return Mistakes.check(LabServer.config(args), Arch.of(arch));
    }

    @Test
    void helpListsTheMistakesOfEachArchitectureOneLineEach() {
        picocli.CommandLine cl = LabServer.commandLine();
        for (String arch : List.of("lt", "et")) {
            String help = cl.getSubcommands().get(arch).getUsageMessage();
            for (Mistake m : Mistake.values()) {
                String line = String.format("  %-17s %s%n", m.label, m.description);
                if (m.appliesTo(Arch.of(arch))) assertThat(help).as(arch + " --help").contains(line);
                else assertThat(help).as(arch + " --help").doesNotContain("  " + m.label + " ");
            }
        }
    }
}
