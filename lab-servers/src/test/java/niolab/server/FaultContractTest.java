package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.server.testing.Echo;
import niolab.server.testing.Proc;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Faults and bad input, written once and run against each architecture through a subclass (as
 * {@link EchoContractTest} is): whatever clients do, the server keeps serving, loses no byte,
 * leaks no descriptor, logs a fault in one line and never a stack trace.
 *
 * <p>One server, started once, takes the faults that need no special option, and must hold no
 * more descriptors after each than before it; a SIGTERM ends its life, last. Faults that need
 * options (a descriptor limit, an idle timeout, a small buffer) get a server of their own. Tests
 * assert behaviour, not timings; the one exception is the CPU bound while descriptors are
 * exhausted, and it is generous. Every wait is bounded; every server is stopped.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class FaultContractTest extends SoakContractTest {
    @Test
    void halfCloseWhileEchoIsPendingStillGetsTheWholeEcho() throws Exception {
        List<CompletableFuture<byte[]>> echoes = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                byte[] payload = Echo.random(2 << 20, 40 + i);
                Socket s = Echo.slowReader(address);
                sockets.add(s);
                payloads.add(payload);
                // The FIN arrives while the server still holds echo it could not send.
                Echo.writeAsync(s, payload, 64 * 1024, i).thenRun(() -> shutdownOutput(s));
                echoes.add(readSlowlyToEndAsync(s));
            }
            for (int i = 0; i < echoes.size(); i++) {
                byte[] echo = Echo.await(echoes.get(i));
                assertThat(Echo.same(echo, payloads.get(i))).as("%d bytes echoed, then closed", echo.length).isTrue();
            }
        } finally {
            for (Socket s : sockets) s.close();
        }
        assertNoLeakedDescriptors();
    }

    @Test
    void peersThatResetWhileTheServerIsWritingAreClosedAndNobodyElseNotices() throws Exception {
        try (Socket steady = Echo.connect(address)) {
            roundTrip(steady, 1);
            for (int i = 0; i < 10; i++) {
                Socket rude = Echo.slowReader(address);
                rude.getOutputStream().write(Echo.random(1 << 20, i)); // never read: the server's echo backs up
                rude.setSoLinger(true, 0);
                rude.close(); // RST while the server has output pending
                roundTrip(steady, 2 + i);
            }
        }
        byte[] fresh = Echo.random(10_000, 9);
        assertThat(Echo.roundTrip(address, fresh, 1000, 9)).isEqualTo(fresh);
        assertNoLeakedDescriptors();
    }

    @Test
    void connectionsThatCloseOrResetWithoutSendingAreHarmless() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                final int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        Socket s = Echo.connect(address);
                        if ((i + thread) % 2 == 0) s.setSoLinger(true, 0); // half of them RST, half FIN
                        s.close();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        byte[] payload = Echo.random(1234, 5);
        assertThat(Echo.roundTrip(address, payload, 1234, 5)).isEqualTo(payload);
        assertNoLeakedDescriptors();
    }

    @Test
    void fiveThousandIdleConnectionsHeldOpenWhileOthersAreServed() throws Exception {
        List<Long> serving = Proc.servingProcesses(server);
        List<Long> before = new ArrayList<>();
        for (long pid : serving) before.add(Proc.fds(pid));
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 5000; i++) idle.add(Echo.connect(address));
            for (int i = 0; i < 50; i++) {
                byte[] payload = Echo.random(1000, i);
                assertThat(Echo.roundTrip(address, payload, 1000, i)).isEqualTo(payload);
            }
            for (int i = 0; i < idle.size(); i += 250) roundTrip(idle.get(i), i); // the idle ones still work
            // Every serving process holds some of them (mp: the kernel spread them over the workers).
            assertThat(Proc.fds(serving)).isGreaterThanOrEqualTo(5000);
            for (int w = 0; w < serving.size(); w++) {
                assertThat(Proc.fds(serving.get(w)) - before.get(w)).as("connections held by process %d", w).isGreaterThan(100);
            }
        } finally {
            for (Socket s : idle) s.close();
        }
        assertNoLeakedDescriptors();
    }

    @Test
    void aClientThatNeverReadsHoldsAtMostOneBufferWhileOthersAreServed() throws Exception {
        int cap = 4096;
        try (ServerProcess p = startServer("--buffer-size", Integer.toString(cap));
             Socket hog = Echo.connect(p.address())) {
            AtomicLong written = new AtomicLong();
            long hogBytes = 64L << 20; // far more than the kernel buffers hold
            Echo.writeWithoutReading(hog, hogBytes, written);
            Echo.awaitDoneOrHeldBack(written, hogBytes);
            for (int i = 0; i < 50; i++) { // the hog's connection is stuck; the others are served
                byte[] payload = Echo.random(20_000, i);
                assertThat(Echo.roundTrip(p.address(), payload, 5000, i)).isEqualTo(payload);
            }

            assertThat(p.terminate(30)).as(p.output()).isZero();
            assertCleanLog(p);
            long in = Proc.counter(p, "bytes_in");
            long out = Proc.counter(p, "bytes_out");
            // The others' echoes are complete, so what was read and not sent is what the hog cost.
            assertThat(in - out).as("bytes the server held for the hog (read, not yet echoed); the server said: " + p.output()).isBetween(0L, (long) cap);
            assertThat(in).as("the rest waits in the kernel, or in the client").isLessThan(written.get() + 50 * 20_000L);
            assertThat(written.get()).as("the writer was held back").isLessThan(hogBytes);
        }
    }

    @Test
    void idleTimeoutClosesSilentConnectionsAndCountsThem() throws Exception {
        try (ServerProcess p = startServer("--idle-timeout", "1s")) {
            List<Socket> silent = new ArrayList<>();
            try (Socket busy = Echo.connect(p.address())) {
                for (int i = 0; i < 20; i++) silent.add(Echo.connect(p.address())); // slowloris: connect, then nothing
                Socket talkedOnce = Echo.connect(p.address());
                silent.add(talkedOnce);
                roundTrip(talkedOnce, 99);
                // The busy client keeps talking, more often than the timeout, for longer than it.
                for (int i = 0; i < 15; i++) {
                    roundTrip(busy, i);
                    Thread.sleep(200);
                }
                for (Socket s : silent) {
                    s.setSoTimeout(15_000);
                    assertThat(s.getInputStream().read()).as("closed by the server").isEqualTo(-1);
                }
                roundTrip(busy, 100); // still served
            } finally {
                for (Socket s : silent) s.close();
            }
            assertThat(p.terminate(30)).as(p.output()).isZero();
            assertCleanLog(p);
            assertThat(Proc.counter(p, "idle_closes")).as(p.output()).isEqualTo(21);
            assertThat(p.output()).contains(": --idle-timeout closed ").contains(" silent for 1000 ms or more");
        }
    }

    @Test
    void outOfDescriptorsTheServerLogsOnceDoesNotSpinAndServesTheWaitingConnectionsLater() throws Exception {
        int limit = 64;
        // --idle-timeout (long) and --stats-interval put their code on the path while descriptors are short.
        List<String> args = serverUnderTest().commandLine(List.of("--port", "0", "--idle-timeout", "10m", "--stats-interval", "500ms"));
        try (ServerProcess p = ServerProcess.startExactly(List.of("prlimit", "--nofile=" + limit + ":" + limit), args)) {
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 300; i++) flood.add(Echo.connect(p.address())); // the kernel completes them all
                assertThat(p.awaitOutput("pausing accepts", 20_000)).as("the server says it is pausing accepts, once out of descriptors; it said:\n%s", p.output()).isTrue();

                // Per process: a spinning event loop keeps its own process near 1.0 of a core,
                // while mp's three JVMs together may add up their start-up work (JIT, GC).
                List<Long> pids = Proc.tree(p);
                double[] cpu0 = new double[pids.size()];
                for (int i = 0; i < cpu0.length; i++) cpu0[i] = Proc.cpuSeconds(List.of(pids.get(i)));
                long t0 = System.nanoTime();
                Thread.sleep(3000); // the episode: every descriptor taken, 300 - ~40 connections waiting
                double seconds = (System.nanoTime() - t0) / 1e9;
                double busiest = 0, total = 0;
                for (int i = 0; i < cpu0.length; i++) {
                    double share = (Proc.cpuSeconds(List.of(pids.get(i))) - cpu0[i]) / seconds;
                    busiest = Math.max(busiest, share);
                    total += share;
                }
                System.out.printf("%s: CPU while out of descriptors: %.1f%% of one core (busiest process %.1f%%)%n",
                        serverUnderTest().name(), 100 * total, 100 * busiest);
                assertThat(busiest).as("CPU share of one core of the busiest server process while out of descriptors (a spin is ~1.0)")
                        .isLessThan(0.5);

                // Descriptors free up as clients finish, and each waiting connection is served in
                // its turn. Every client at once: with several listeners in one process (--loops)
                // a freed descriptor goes to whichever loop accepts first, not in connect order.
                ExecutorService clients = Executors.newFixedThreadPool(flood.size());
                try {
                    List<Future<?>> done = new ArrayList<>();
                    for (int i = 0; i < flood.size(); i++) {
                        Socket s = flood.get(i);
                        long seed = i;
                        done.add(clients.submit(() -> {
                            roundTrip(s, seed);
                            s.close();
                            return null;
                        }));
                    }
                    for (int i = 0; i < done.size(); i++) {
                        try {
                            done.get(i).get(60, TimeUnit.SECONDS);
                        } catch (java.util.concurrent.ExecutionException e) {
                            throw new AssertionError("connection " + i + " of the flood: " + e.getCause() + "\n" + p.output(), e);
                        }
                    }
                } finally {
                    clients.shutdownNow();
                }
            } finally {
                for (Socket s : flood) s.close();
            }
            byte[] payload = Echo.random(100_000, 3);
            assertThat(Echo.roundTrip(p.address(), payload, 10_000, 3)).as("a 100 KB echo after the episode").isEqualTo(payload);

            assertThat(p.terminate(30)).as(p.output()).isZero();
            assertCleanLog(p);
            assertThat(Proc.counter(p, "accept_failures")).as("accept_failures counted").isPositive();
            assertThat(Proc.counter(p, "accepts")).as("accepts: the flood's 300 and the 100 KB echo's one").isEqualTo(301);
            // One line per process per episode: it lasts until the backlog is drained.
            Matcher m = Pattern.compile("(?m)^(\\[w\\d+\\] )?" + serverUnderTest().logPrefix() + "( loop\\d+)?: accept.* failed").matcher(p.output());
            List<String> lines = new ArrayList<>();
            while (m.find()) lines.add(m.group());
            assertThat(lines).as("one log line per episode; the server said:\n%s", p.output()).isNotEmpty().doesNotHaveDuplicates();
        }
    }

    /** Last: it ends the shared server's life, and {@link #stopSharedServer} checks how it ended. */
    @Test
    @Order(Integer.MAX_VALUE)
    void sigtermDuringARunLetsInFlightEchoesCompleteAndExitsZero() throws Exception {
        ServerProcess p = server;
        int clients = 16;
        List<Socket> sockets = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        List<CompletableFuture<byte[]>> echoes = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                Socket s = Echo.connect(p.address());
                sockets.add(s);
                roundTrip(s, i); // accepted: the SIGTERM below finds it open, not in the backlog
                byte[] payload = Echo.random(256 * 1024, i);
                payloads.add(payload);
                Echo.writeAsync(s, payload, 16 * 1024, i).thenRun(() -> shutdownOutput(s));
                echoes.add(readSlowlyToEndAsync(s));
            }
            p.process.toHandle().destroy(); // SIGTERM with echoes in flight
            for (int i = 0; i < clients; i++) {
                assertThat(Echo.same(Echo.await(echoes.get(i)), payloads.get(i))).as("echo %d complete", i).isTrue();
            }
            assertThat(p.awaitExit(10)).as("exit status within 10 s: " + p.output()).isZero();
        } finally {
            for (Socket s : sockets) s.close();
        }
        assertCleanLog(p);
        assertThat(p.output()).contains("counters: ");
    }

    private static void shutdownOutput(Socket s) {
        try {
            s.shutdownOutput();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** {@link #readSlowlyToEnd} on a thread of its own (the common pool may have one thread: readers would queue). */
    private static CompletableFuture<byte[]> readSlowlyToEndAsync(Socket s) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(readSlowlyToEnd(s));
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        }, "slow-reader");
        t.setDaemon(true);
        t.start();
        return f;
    }

    /** Reads in small helpings with a pause now and then, until the server closes. */
    private static byte[] readSlowlyToEnd(Socket s) {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        byte[] b = new byte[4096];
        try {
            InputStream in = s.getInputStream();
            for (int reads = 0; ; reads++) {
                int r = in.read(b);
                if (r < 0) return all.toByteArray();
                all.write(b, 0, r);
                if (reads % 64 == 0) Thread.sleep(1);
            }
        } catch (IOException | InterruptedException e) {
            throw new RuntimeException("after " + all.size() + " bytes: " + e, e);
        }
    }
}
