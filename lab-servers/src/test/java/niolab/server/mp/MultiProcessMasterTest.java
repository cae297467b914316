package niolab.server.mp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import niolab.server.base.Arch;
import niolab.server.testing.Echo;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * The master's own promises: the kernel spreads connections over every worker, a killed worker
 * is replaced, stopping or killing the master leaves no worker behind, and a worker that cannot
 * start ends the master instead of looping. Every wait is bounded; every process is stopped.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MultiProcessMasterTest {
    private static final Pattern WORKER_COUNTERS = Pattern.compile("(?m)^\\[w(\\d+)\\] counters: accepts=(\\d+) .* restarts=(\\d+)$");

    @Test
    void everyWorkerAcceptsSomeOfFiveHundredShortConnections() throws Exception {
        try (ServerProcess p = ServerProcess.start("mp", "--workers", "3")) {
            List<ProcessHandle> pool = workers(p, 3);
            try {
                assertThat(p.label()).isEqualTo("mp: 3 x lt, echo");
                byte[] payload = Echo.random(32, 1);
                for (int i = 0; i < 500; i++) {
                    try (Socket s = Echo.connect(p.address())) {
                        s.getOutputStream().write(payload);
                        assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
                    }
                }
                assertThat(p.terminate(30)).isZero();
                Map<Integer, Long> accepts = acceptsPerWorker(p.output());
                assertThat(accepts).containsOnlyKeys(1, 2, 3);
                assertThat(accepts.values()).allSatisfy(n -> assertThat(n).isPositive());
                assertThat(accepts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(500);
                assertThat(p.output()).contains("\ncounters: accepts=500 ");
            } finally {
                stopPool(p, pool);
            }
        }
    }

    @Test
    void aWorkerKilledUnderLoadIsRestartedAndServiceGoesOn() throws Exception {
        try (ServerProcess p = ServerProcess.start("mp", "--workers", "2")) {
            List<ProcessHandle> pool = new ArrayList<>(workers(p, 2));
            AtomicBoolean loading = new AtomicBoolean(true);
            AtomicLong served = new AtomicLong();
            Thread load = new Thread(() -> shortConnectionsUntil(p.address(), loading, served), "load");
            load.setDaemon(true);
            load.start();
            try {
                awaitAtLeast(served, 50);
                ProcessHandle victim = pool.get(0);
                victim.destroyForcibly();
                assertThat(victim.onExit().get(20, TimeUnit.SECONDS).isAlive()).isFalse();
                assertThat(p.awaitOutput("exited with status 137 (SIGKILL); restarting", 30_000)).as(p.output()).isTrue();
                assertThat(p.awaitOutput("restarted; the pool is whole again", 90_000)).as(p.output()).isTrue();
                awaitAtLeast(served, served.get() + 100); // the load goes on across the restart
                loading.set(false);
                load.join(30_000);

                List<ProcessHandle> now = workers(p, 2);
                pool.addAll(now);
                assertThat(now).doesNotContain(victim).contains(pool.get(1));
                byte[] payload = Echo.random(16, 2);
                for (int i = 0; i < 200; i++) { // the new pool serves every connection
                    assertThat(Echo.roundTrip(p.address(), payload, 16, i)).isEqualTo(payload);
                }
                assertThat(p.terminate(30)).isZero();
                Map<Integer, Long> accepts = acceptsPerWorker(p.output());
                assertThat(accepts).containsOnlyKeys(1, 2);
                assertThat(accepts.values()).allSatisfy(n -> assertThat(n).isPositive());
                assertThat(p.output()).containsPattern("(?m)^\\[w\\d\\] counters: .* restarts=1$");
            } finally {
                loading.set(false);
                stopPool(p, pool);
            }
        }
    }

    @Test
    void sigtermToTheMasterLeavesNoWorkerAndWorkersGetTheMastersJvmOptions() throws Exception {
        // The JVM option comes in through JAVA_TOOL_OPTIONS, as bin/lab-server's JAVA_OPTS would.
        try (ServerProcess p = ServerProcess.startExactly(List.of("env", "JAVA_TOOL_OPTIONS=-Xmx96m"),
                List.of("mp", "--workers", "2", "--port", "0", "--backlog", "200"))) {
            List<ProcessHandle> pool = workers(p, 2);
            try {
                for (ProcessHandle w : pool) {
                    List<String> args = List.of(w.info().arguments().orElse(new String[0]));
                    // (w1 has --port 0: it asked the kernel for the port w2 then joined)
                    assertThat(args).contains("-Xmx96m", WorkerMain.class.getName(), "--reuse-port", "--exit-on-stdin-eof", "--backlog", "200");
                }
                byte[] payload = Echo.random(10, 3);
                assertThat(Echo.roundTrip(p.address(), payload, 10, 3)).isEqualTo(payload);
                assertThat(p.terminate(30)).isZero();
                for (ProcessHandle w : pool) assertThat(w.isAlive()).as("worker %d", w.pid()).isFalse();
                assertThat(acceptsPerWorker(p.output())).containsOnlyKeys(1, 2);
                assertThat(p.output()).contains("\ncounters: accepts=1 ");
            } finally {
                stopPool(p, pool);
            }
        }
    }

    @Test
    void sigkillToTheMasterMakesEveryWorkerExitOnItsOwn() throws Exception {
        try (ServerProcess p = ServerProcess.start("mp", "--workers", "2")) {
            List<ProcessHandle> pool = workers(p, 2);
            try {
                p.process.toHandle().destroyForcibly();
                assertThat(p.process.waitFor(20, TimeUnit.SECONDS)).isTrue();
                for (ProcessHandle w : pool) {
                    // Their stdin pipe closed with the master: each drains (up to 2 s) and exits.
                    w.onExit().get(30, TimeUnit.SECONDS);
                    assertThat(w.isAlive()).as("worker %d", w.pid()).isFalse();
                }
            } finally {
                stopPool(p, pool);
            }
        }
    }

    @Test
    void aPortAnotherProgramHoldsIsOneLineAtOnce() throws Exception {
        // A plain listener (no SO_REUSEPORT) owns the port: the master's probe says so before any worker starts.
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
             ServerProcess p = ServerProcess.launch(List.of(),
                     List.of("mp", "--workers", "2", "--port", Integer.toString(taken.getLocalPort())))) {
            assertThat(p.awaitExit(60)).as(p.output()).isEqualTo(1);
            assertThat(p.output().trim()).isEqualTo("error: 127.0.0.1:" + taken.getLocalPort() + " is already in use");
        }
    }

    @Test
    void aWorkerThatCannotStartMakesTheMasterGiveUpWithExitOne() throws Exception {
        // Every JVM of the pool may reserve only 4 KiB of direct memory: the master needs none,
        // each lt worker dies allocating its read buffer, before it is ready.
        try (ServerProcess p = ServerProcess.launch(List.of("env", "JAVA_TOOL_OPTIONS=-XX:MaxDirectMemorySize=4k"),
                     List.of("mp", "--workers", "2", "--port", "0"))) {
            try {
                assertThat(p.awaitExit(120)).as(p.output()).isEqualTo(1);
                assertThat(p.output())
                        // doubling from 100 ms after each failed start in a row: the fifth is the last
                        .contains("before it was ready; restarting in 100 ms", "restarting in 200 ms", "restarting in 400 ms", "restarting in 800 ms")
                        .contains("; giving up")
                        .containsPattern("(?m)^error: .*gave up on worker w\\d: 5 starts in a row failed before it was ready")
                        .doesNotContain("listening on 127.0.0.1");
            } finally {
                stopPool(p, List.of());
            }
        }
    }

    @Test
    void aWorkerThatRejectsItsCommandLineIsGivenUpOnAtItsFirstStart() throws Exception {
        // A worker parses the user's server options again; one it rejects (status 2) can never
        // start, so the master gives up at once, quoting it. The master's own parsing lets no
        // such option through, so the pool is built here, in this JVM, with one it never checked.
        MpCommand mp = new MpCommand();
        CommandLine cl = new CommandLine(mp);
        mp.configure(cl); // as the launcher does: the workers' own options joined to mp's
        cl.parseArgs("--workers", "1", "--port", "0");
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        PrintStream err = System.err;
        MultiProcessMaster master;
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            master = new MultiProcessMaster(mp.config(), 1, Arch.LT, List.of("--no-such-option"), false);
        } finally {
            System.setErr(err);
        }
        assertThatThrownBy(master::bind).as("why the master gave up").isInstanceOf(IOException.class)
                .hasMessageStartingWith("gave up on worker w1: it rejected its command line (it said: ")
                .hasMessageContaining("--no-such-option");
        assertThat(said.toString(StandardCharsets.UTF_8)).as("what the master printed")
                .contains("[w1] exited with status 2 before it was ready; giving up")
                .doesNotContain("restarting");
    }

    @Test
    void aWorkerKilledEachTimeItServesIsRestartedAtOnceUntilTheMasterGivesUpWithExitOne() throws Exception {
        // Each life of w1 is killed once it says it is serving: a serving worker is restarted at
        // once, so the fifth exit comes well within the 10 s window, and the crash-loop rule ends the pool.
        try (ServerProcess p = ServerProcess.start("mp", "--workers", "1")) {
            List<ProcessHandle> lives = new ArrayList<>();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                for (int life = 1; life <= 2 * MultiProcessMaster.EXITS_LIMIT && p.process.isAlive(); life++) {
                    while (p.linesContaining("[w1] listening on") < life && p.process.isAlive() && System.nanoTime() < deadline) {
                        Thread.sleep(20);
                    }
                    if (!p.process.isAlive() || System.nanoTime() >= deadline) break;
                    ProcessHandle w = workers(p, 1).get(0);
                    lives.add(w);
                    w.destroyForcibly();
                    w.onExit().get(30, TimeUnit.SECONDS);
                }
                assertThat(p.awaitExit(60)).as(p.output()).isEqualTo(1);
                assertThat(lives).as("lives killed before the master gave up").hasSize(MultiProcessMaster.EXITS_LIMIT);
                assertThat(p.output())
                        .contains("[w1] exited with status 137 (SIGKILL); restarting\n")
                        .contains("[w1] exited with status 137 (SIGKILL); giving up\n")
                        .containsPattern("(?m)^error: .*gave up on worker w1: it exited 5 times within 10 s");
            } finally {
                stopPool(p, lives);
            }
        }
    }

    @Test
    void aBadWorkerCountIsAFlagError() throws Exception {
        // In-process: refused before any worker starts (CliContractTest sees a usage error's exit in a real process).
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of("mp", "--workers", "0", "--port", "0"));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("--workers must be between 1 and 256, not 0").doesNotContain("Exception");
    }

    @Test
    void exitStatusesAreDescribedForPeople() {
        assertThat(MultiProcessMaster.describeStatus(137)).isEqualTo("137 (SIGKILL)");
        assertThat(MultiProcessMaster.describeStatus(1)).isEqualTo("1");
    }

    /** The master's children once all {@code n} are there (a restarted one may still be on its way). */
    private static List<ProcessHandle> workers(ServerProcess p, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<ProcessHandle> children;
        do {
            children = p.process.toHandle().children().filter(ProcessHandle::isAlive).collect(Collectors.toList());
            if (children.size() == n) return children;
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("expected " + n + " workers, found " + children + "\n" + p.output());
    }

    private static Map<Integer, Long> acceptsPerWorker(String output) {
        Map<Integer, Long> accepts = new TreeMap<>();
        Matcher m = WORKER_COUNTERS.matcher(output);
        while (m.find()) accepts.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
        return accepts;
    }

    /**
     * Fresh connections one after another, 2 ms apart: load enough to be under way when the worker
     * dies, without spinning a core for the restart's whole wait; failures (the killed worker's
     * queue is reset) are expected and skipped.
     */
    private static void shortConnectionsUntil(InetSocketAddress address, AtomicBoolean loading, AtomicLong served) {
        byte[] payload = Echo.random(8, 4);
        while (loading.get()) {
            try (Socket s = new Socket()) {
                s.setSoTimeout(2000);
                s.connect(address, 2000);
                s.getOutputStream().write(payload);
                Echo.readExactly(s.getInputStream(), payload.length);
                served.incrementAndGet();
            } catch (IOException expectedWhileAWorkerDies) {
                // try the next connection
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void awaitAtLeast(AtomicLong counter, long target) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (counter.get() < target && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(counter.get()).as("connections served").isGreaterThanOrEqualTo(target);
    }

    /** Whatever happened: the master stopped (SIGTERM, then SIGKILL), then any worker still alive killed. */
    private static void stopPool(ServerProcess p, List<ProcessHandle> known) {
        List<ProcessHandle> all = new ArrayList<>(known);
        p.process.toHandle().descendants().forEach(all::add);
        p.close();
        for (ProcessHandle h : all) {
            if (h.isAlive()) h.destroyForcibly();
        }
    }
}
