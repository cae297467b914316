package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.common.CountersLine;
import niolab.server.testing.Echo;
import niolab.server.testing.PacedEchoLoad;
import niolab.server.testing.Proc;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;

/**
 * The echo soak, written once and run against every architecture through a subclass: many
 * connections at once, random chunks, slow readers, every byte echoed back in order and checked,
 * and the server back to the descriptors it held before. {@link FaultContractTest} adds the
 * faults to it for the lab's own servers; a server that takes none of their options (bio, the
 * Netty peers, the C reference) joins this suite alone.
 */
public abstract class SoakContractTest extends ServerContractTest {
    /**
     * 32 MiB over 200 connections: 160 KiB each, written in chunks of 1 byte to 1 MiB and read
     * back in small helpings, so the server's buffers fill and drain several times per connection
     * (every byte crosses the server twice and is checked). {@code -Dfaults.load.mib=1024} for a
     * longer soak.
     */
    private static final long LOAD_BYTES = Long.getLong("faults.load.mib", 32) << 20;
    private static final int LOAD_CONNECTIONS = 200;
    /**
     * The shared server's SO_SNDBUF, where it has {@code --sndbuf}: the kernel's own grows on
     * loopback until it holds a whole echo (256 MiB of the load above made not one partial write on lt),
     * so without it no slow reader would ever hold the server's output back.
     */
    private static final String SNDBUF = "16384";

    /** The shared server's descriptors when it serves nobody. */
    private long baselineFds;

    /** Whether the server has {@code --sndbuf} (lt and et do, and mp's workers of them). */
    protected boolean hasSndbuf() {
        return true;
    }

    /** Whether it prints the lab's counters: {@code stats:} lines under {@code --stats-interval}, {@code counters:} on exit. */
    protected boolean hasCounters() {
        return true;
    }

    /** Its counters every 100 ms, where it has them: a test reads what the server did while it still runs. */
    @Override
    protected ServerProcess startSharedServer() throws Exception {
        List<String> options = new ArrayList<>();
        if (hasCounters()) options.addAll(List.of("--stats-interval", "100ms"));
        if (hasSndbuf()) options.addAll(List.of("--sndbuf", SNDBUF));
        ServerProcess shared = startServer(options.toArray(new String[0]));
        roundTrip(Echo.connect(shared.address()), 0);
        baselineFds = Proc.fds(Proc.tree(shared));
        return shared;
    }

    @Override
    protected void stopSharedServer() throws Exception {
        if (server == null) return;
        try {
            int status = server.terminate(30);
            assertCleanLog(server);
            if (hasCounters()) {
                assertThat(status).as(server.output()).isZero();
                assertThat(Proc.counter(server, "closes")).as("every connection closed").isEqualTo(Proc.counter(server, "accepts"));
            }
        } finally {
            server.close();
        }
    }

    @Test
    void manyConnectionsWithRandomChunksAndSlowReadersGetEveryByteBackInOrder() throws Exception {
        long each = LOAD_BYTES / LOAD_CONNECTIONS;
        long partialWritesBefore = hasCounters() ? statsCounter("partial_writes") : 0;
        long t0 = System.nanoTime();
        long checked = PacedEchoLoad.run(address, LOAD_CONNECTIONS, each, 2, 100);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long partialWrites = hasCounters() ? statsCounter("partial_writes") - partialWritesBefore : -1;
        System.out.printf("%s: %.0f MiB echoed and checked over %d connections in %.1f s%s%n", serverUnderTest().name(),
                checked / (double) (1 << 20), LOAD_CONNECTIONS, seconds, hasCounters() ? ", " + partialWrites + " partial writes" : "");
        assertThat(checked).isEqualTo(each * LOAD_CONNECTIONS);
        // A quarter of the connections read slowly: their echoes must have held the server's writes back.
        if (hasSndbuf() && hasCounters()) {
            assertThat(partialWrites).as("partial writes during the load").isGreaterThanOrEqualTo(LOAD_CONNECTIONS / 4);
        }
        assertNoLeakedDescriptors();
    }

    /**
     * {@code name} on a {@code stats:} line that the shared server printed after this call: the
     * third one, since mp's master sums the lines its workers printed up to an interval before.
     */
    protected long statsCounter(String name) throws InterruptedException {
        int seen = statsLines().size();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> lines;
        while ((lines = statsLines()).size() < seen + 3 && System.nanoTime() < deadline) Thread.sleep(50);
        assertThat(lines.size()).as("stats lines; the server said:\n%s", server.output()).isGreaterThanOrEqualTo(seen + 3);
        Long value = CountersLine.parse(lines.get(lines.size() - 1)).get(name);
        assertThat(value).as("%s on %s", name, lines.get(lines.size() - 1)).isNotNull();
        return value;
    }

    /** The shared server's own {@code stats:} lines (not mp's workers', which come tagged). */
    private List<String> statsLines() {
        List<String> lines = new ArrayList<>();
        for (String line : server.output().split("\n")) {
            if (line.startsWith(CountersLine.STATS_PREFIX)) lines.add(line);
        }
        return lines;
    }

    /** The shared server is back to the descriptors it had before the test (bounded wait). */
    protected void assertNoLeakedDescriptors() throws InterruptedException {
        List<Long> pids = Proc.tree(server);
        // A leak grows with the connections (there were hundreds); the JVM itself may open a file or two lazily.
        long allowed = baselineFds + 2;
        assertThat(Proc.awaitFdsAtMost(pids, allowed, 20_000)).as("descriptors held by the server").isLessThanOrEqualTo(allowed);
        assertCleanLog(server);
    }

    protected static void roundTrip(Socket s, long seed) throws IOException {
        byte[] payload = Echo.random(100, seed);
        s.getOutputStream().write(payload);
        assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
    }
}
