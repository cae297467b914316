package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import niolab.server.testing.Echo;
import niolab.server.testing.Proc;
import niolab.server.testing.ServerProcess;
import niolab.server.testing.ServerUnderTest;
import niolab.server.testing.TestNetns;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Test;

/** The fault suite against mp (2 lt workers), plus what only mp has: a worker killed mid-run. */
class MpFaultContractTest extends FaultContractTest {
    private static final int CLIENTS = 40;
    /** Between one client's round trips: ten milliseconds. */
    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("mp", "--workers", "2").logPrefix("lt");
    }

    @Test
    void aWorkerKilledMidRunIsRestartedAndOnlyItsConnectionsFail() throws Exception {
        killAWorkerUnderLoad(null);
    }

    @Test
    void withMigrateAWorkerKilledMidRunLosesNoQueuedConnection() throws Exception {
        // The sysctl is per network namespace: set it in a host of the test's own, not on the machine.
        Capability.NETNS.assume();
        try (TestNetns ns = TestNetns.create("net.ipv4.tcp_migrate_req=1")) {
            killAWorkerUnderLoad(ns);
        }
    }

    /**
     * {@value #CLIENTS} clients each echo on one connection over and over; one worker is killed.
     * Its connections fail (its process is gone), every other one must not notice, each failed
     * client reconnects and is served by the survivor or the restarted worker.
     */
    private void killAWorkerUnderLoad(TestNetns ns) throws Exception {
        boolean migrate = ns != null;
        try (ServerProcess p = migrate ? startIn(ns, "--migrate") : startServer()) {
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLongArray served = new AtomicLongArray(CLIENTS);
            ConcurrentLinkedQueue<Integer> failedPorts = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<String> failedReconnects = new ConcurrentLinkedQueue<>();
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                final int id = i;
                Thread t = new Thread(() -> echoUntilStopped(p, id, running, served, failedPorts, failedReconnects), "client-" + i);
                t.setDaemon(true);
                t.start();
                clients.add(t);
            }
            try {
                awaitEachServed(served, 5);
                List<Long> workers = Proc.servingProcesses(p);
                assertThat(workers).hasSize(2);
                long victim = workers.get(0);
                Set<Integer> victimPeers = peerPorts(victim);
                assertThat(victimPeers).as("the kernel gave the victim some of the clients").isNotEmpty();
                long[] before = snapshot(served);

                ProcessHandle.of(victim).ifPresent(ProcessHandle::destroyForcibly);
                assertThat(p.awaitOutput("exited with status 137 (SIGKILL); restarting", 30_000)).as(p.output()).isTrue();
                assertThat(p.awaitOutput("restarted; the pool is whole again", 60_000)).as(p.output()).isTrue();
                awaitEachServed(served, before, 5); // every client, the victim's included, is served again

                running.set(false);
                for (Thread t : clients) t.join(10_000);
                List<Integer> failed = new ArrayList<>(failedPorts);
                assertThat(failed).as("failures only on the killed worker's connections").allMatch(victimPeers::contains);
                assertThat(failed.size()).isLessThanOrEqualTo(victimPeers.size());
                if (migrate) assertThat(failedReconnects).as("queued connections migrated").isEmpty();
                assertThat(failedReconnects.size()).as("reconnects that failed: %s", failedReconnects).isLessThanOrEqualTo(victimPeers.size());
                System.out.printf("mp: worker killed with %d of %d connections; %d failed; %d reconnects failed%n",
                        victimPeers.size(), CLIENTS, failed.size(), failedReconnects.size());
            } finally {
                running.set(false);
            }
            assertThat(p.terminate(30)).as(p.output()).isZero();
            assertCleanLog(p);
        }
    }

    /** mp inside {@code ns}, on its inner address. */
    private ServerProcess startIn(TestNetns ns, String... options) throws Exception {
        List<String> args = new ArrayList<>(serverUnderTest().command());
        args.addAll(List.of("--host", ns.innerAddress(), "--port", "0"));
        args.addAll(List.of(options));
        return ServerProcess.startExactly(ns.exec(), args);
    }

    /** One client: echo 1 KiB again and again; on a failure note the connection's port, reconnect and go on. */
    private static void echoUntilStopped(ServerProcess p, int id, AtomicBoolean running, AtomicLongArray served,
                                         ConcurrentLinkedQueue<Integer> failedPorts, ConcurrentLinkedQueue<String> failedReconnects) {
        boolean reconnecting = false;
        while (running.get()) {
            int port = -1;
            try (Socket s = Echo.connect(p.address())) {
                port = s.getLocalPort();
                for (long i = 0; running.get(); i++) {
                    roundTrip(s, i);
                    served.incrementAndGet(id);
                    reconnecting = false;
                    // Each connection stays in use without 40 threads spinning on two cores; a failure still shows at the next trip.
                    LockSupport.parkNanos(PAUSE_NANOS);
                }
            } catch (IOException | AssertionError e) {
                if (!running.get()) return;
                if (reconnecting) {
                    failedReconnects.add(port + ": " + e);
                } else {
                    failedPorts.add(port);
                }
                reconnecting = true;
            }
        }
    }

    /** The client ports of the TCP connections a process holds (from its fds and /proc/net/tcp). */
    private static Set<Integer> peerPorts(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.collect(Collectors.toList())) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) inodes.add(target.substring(8, target.length() - 1));
                } catch (IOException closedMeanwhile) {
                    // skip it
                }
            }
        }
        Set<Integer> ports = new HashSet<>();
        // The process's own view: /proc/net is this test's namespace, not necessarily the worker's.
        for (String table : List.of("/proc/" + pid + "/net/tcp", "/proc/" + pid + "/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                // f[2] is rem_address (hex ip:port), f[3] the state (01 = ESTABLISHED), f[9] the inode.
                if (f[3].equals("01") && inodes.contains(f[9])) {
                    ports.add(Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16));
                }
            }
        }
        return ports;
    }

    private static long[] snapshot(AtomicLongArray a) {
        long[] s = new long[a.length()];
        for (int i = 0; i < s.length; i++) s[i] = a.get(i);
        return s;
    }

    private static void awaitEachServed(AtomicLongArray served, int times) throws InterruptedException {
        awaitEachServed(served, new long[served.length()], times);
    }

    private static void awaitEachServed(AtomicLongArray served, long[] since, int times) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (int i = 0; i < served.length(); i++) {
            while (served.get(i) - since[i] < times && System.nanoTime() < deadline) Thread.sleep(10);
            assertThat(served.get(i) - since[i]).as("round trips of client %d", i).isGreaterThanOrEqualTo(times);
        }
    }
}
