package niolab.server.vt;

import static niolab.server.base.Counter.ACCEPTS;
import static niolab.server.base.Counter.ACCEPT_FAILURES;
import static niolab.server.base.Counter.BYTES_IN;
import static niolab.server.base.Counter.BYTES_OUT;
import static niolab.server.base.Counter.CLOSES;
import static niolab.server.base.Counter.IDLE_CLOSES;
import static niolab.server.base.Counter.LIVE;
import static niolab.server.base.Counter.PARTIAL_WRITES;
import static niolab.server.base.Counter.READS;
import static niolab.server.base.Counter.RESETS;
import static niolab.server.base.Counter.WRITES;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import niolab.server.base.AcceptBackoff;
import niolab.server.base.BlockingLinger;
import niolab.server.base.Counter;
import niolab.server.base.Counters;
import niolab.server.base.IdleSweep;
import niolab.server.base.NioListener;
import niolab.server.base.Server;
import niolab.server.base.ServerConfig;
import niolab.server.base.WaitTimeout;

/**
 * The {@code vt} architecture: no event loop at all. One platform thread blocks in
 * {@code accept}; each connection gets a virtual thread of its own, which serves it with plain
 * blocking reads and writes, top to bottom, as a thread-per-connection server was written before
 * selectors. The JDK turns each call that would block into a park: the virtual thread leaves its
 * carrier, the JDK's poller (epoll, one-shot) waits for the socket, and the thread goes on, on
 * any carrier, once the socket is ready. A subclass speaks the protocol as one straight loop:
 * {@link VirtualThreadEchoServer}, {@link VirtualThreadHttpServer}.
 *
 * <p>What the event loops share ({@code EventLoop}) is done here with threads:
 * <ul>
 * <li>Backpressure is free: a write blocks until the peer has taken the bytes, and the thread
 *     reads nothing meanwhile, so a client that never reads holds one buffer here; the rest
 *     waits in the kernel.</li>
 * <li>Accept failures ({@code EMFILE}): {@link AcceptBackoff}, the same episode as the loops'.
 *     The acceptor sleeps out the retry interval (no spin) and accepts without blocking until
 *     the backlog is empty, since only an empty backlog ends the episode.</li>
 * <li>{@code --idle-timeout}: a sweeper thread runs the loops' {@link IdleSweep} and closes a
 *     silent connection's channel, which wakes its thread, parked in read or write, with an
 *     {@code AsynchronousCloseException}. A connection stamps the sweep number on each read and
 *     write: a volatile load per call, a store once per sweep. A read timeout would do half the
 *     job (a write blocked on a client that never reads has none) and cost more: a blocking
 *     SocketChannel has no timeout, and its socket adaptor's timed read switches the socket to
 *     non-blocking and back around every read (two more syscalls) and schedules a timeout task
 *     for every park.</li>
 * <li>Counters: each connection counts into its own {@link Counters} table with plain
 *     increments, as a loop does; a reading sums the acceptor's table, the tables of the
 *     connections that have closed (each folded in once, under the lock, when it closes) and
 *     those of the live ones. A periodic reading may lag by an event or two; the final one,
 *     after every thread has folded its table, is exact. A LongAdder per row would make every
 *     read and write pay an atomic add to a shared line, for the benefit of a reading taken
 *     every few seconds.</li>
 * <li>Graceful stop: the listener is closed, open connections get up to 2 s to finish their
 *     exchanges, then their channels are closed and their threads finish.</li>
 * </ul>
 *
 * <p>No pinning: nothing on a connection's path holds a monitor or runs in a native frame while
 * it may park. The lock here is a {@link ReentrantLock}, never held around a read or a write.
 * What the connections run first is run once before the first accept (the HTTP classes by
 * {@link VirtualThreadHttpServer}, the JDK's socket code by {@link #exerciseJdkIo}), since a
 * class initializer running on a virtual thread pins it, and makes any other virtual thread
 * that needs the class wait pinned. With {@code --backend}, Jedis and its pool are called on
 * the connections' threads too: {@code ThreadBackend} says what in them could pin, and on which JDKs.
 * {@code VtNoPinningTest} records {@code jdk.VirtualThreadPinned} through a run to keep it so.
 */
public abstract class VirtualThreadServer implements Server {
    private static final long DRAIN_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** After the drain, closed connections' threads only have to notice the close and count. */
    private static final long CLOSE_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final String ARCH = "vt";
    /** Where a connection's buffers start (or {@code --buffer-size}, if smaller); they grow as reads fill them. */
    protected static final int FIRST_BUFFER_BYTES = 4096;

    protected final ServerConfig config;
    protected final PrintStream log = System.err;
    private final AcceptBackoff acceptBackoff = new AcceptBackoff(ARCH, log);
    /** Owned by the sweeper thread; {@link #sweepClock} publishes its clock to the connections. */
    private final IdleSweep idle;
    private volatile long sweepClock;
    /** Written by the acceptor thread only: accepts, accept failures, and live connections gained. */
    private final Counters acceptorCounters = new Counters("waits", LIVE);

    /** Guards the connection table and the counts of the connections gone. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition noConnections = lock.newCondition();
    private final Set<VtConnection> connections = new HashSet<>();
    /** What closed connections counted, and the idle closes. */
    private final Counters closedCounters = new Counters("waits", LIVE);

    private final Thread.Builder threads = Thread.ofVirtual().name("vt-conn-", 1);
    private ServerSocketChannel listener;
    private volatile boolean running = true;

    protected VirtualThreadServer(ServerConfig config) {
        this.config = config;
        this.idle = new IdleSweep(config.idleTimeout());
        exerciseJdkIo();
    }

    @Override
    public InetSocketAddress bind() throws IOException {
        listener = NioListener.open(config); // blocking: the acceptor waits in accept()
        return (InetSocketAddress) listener.getLocalAddress();
    }

    @Override
    public final void run() {
        Thread sweeper = idle.enabled
                ? Thread.ofPlatform().name("vt-idle-sweep").daemon().start(this::sweepUntilStopped) : null;
        try {
            acceptUntilStopped();
            awaitNoConnections(DRAIN_GRACE_NANOS); // the listener is closed: let open exchanges finish
        } finally {
            if (sweeper != null) sweeper.interrupt();
            closeEverything();
            closed();
        }
    }

    /** After every connection's thread has finished: what a subclass closes last (its backend). */
    protected void closed() {
    }

    /** Declares counters rows beyond the common ones (a backend's), printed even while still zero. */
    protected final void declare(Counter... rows) {
        acceptorCounters.addAll(new Counters("waits", rows));
    }

    private void acceptUntilStopped() {
        while (running) {
            SocketChannel ch;
            try {
                ch = listener.accept();
            } catch (ClosedChannelException stopped) {
                return; // stop() closed the listener
            } catch (IOException e) {
                pauseAccepting(e);
                continue;
            }
            if (ch == null) {
                backlogDrained(); // only in an episode is the listener non-blocking
                continue;
            }
            opened(ch);
        }
    }

    /** A connection was accepted: count it, enter it in the table, start its thread. */
    private void opened(SocketChannel ch) {
        VtConnection c = new VtConnection(this, ch, sweepClock);
        acceptorCounters.inc(ACCEPTS);
        acceptorCounters.inc(LIVE);
        lock.lock();
        try {
            connections.add(c);
        } finally {
            lock.unlock();
        }
        threads.start(c);
    }

    /** Out of descriptors (or another accept failure): sleep out the retry interval, never spin. */
    private void pauseAccepting(IOException e) {
        acceptorCounters.inc(ACCEPT_FAILURES);
        acceptBackoff.pause("accept", e.getMessage());
        try {
            // Without blocking until the backlog is empty: only that ends the episode.
            listener.configureBlocking(false);
            Thread.sleep(acceptBackoff.waitMillis());
        } catch (IOException | InterruptedException stopping) {
            stop();
        }
        acceptBackoff.resume();
    }

    private void backlogDrained() {
        acceptBackoff.drained();
        try {
            listener.configureBlocking(true);
        } catch (IOException stopping) {
            stop();
        }
    }

    /** A connection's virtual thread, from accept to close. */
    final void handle(VtConnection c) {
        try {
            c.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            serve(c);
        } catch (ClosedChannelException closedByServer) {
            // the idle sweep or the end of the drain closed it while the thread was parked
        } catch (IOException e) {
            c.counters.inc(RESETS); // reset by peer, broken pipe: this connection only
        } finally {
            closeQuietly(c.channel);
            closed(c);
        }
    }

    /**
     * Serves one connection with blocking calls until the exchange is over: returns once the
     * peer has finished sending and everything has been answered, or the protocol closes.
     */
    protected abstract void serve(VtConnection c) throws IOException;

    /**
     * Reads into {@code c.in} (cleared first, flipped after), parking until bytes come; -1 at the
     * peer's end of stream. The buffer starts at {@link #FIRST_BUFFER_BYTES} and doubles, up to
     * {@code --buffer-size}, each time a read fills it (more was waiting than it could take): a
     * connection spends most of its life parked in this read, holding its buffer, so an idle one
     * holds 4 KiB, while a bulk transfer soon reads 64 KiB at a time. A heap buffer, collected
     * with the connection: the JDK copies through a direct buffer it caches per carrier, and a
     * direct buffer per connection would cost a zeroed native allocation at each accept, freed
     * only when a GC gets to its cleaner.
     */
    protected final int read(VtConnection c) throws IOException {
        ByteBuffer in = c.in;
        if (in == null) {
            in = c.in = ByteBuffer.allocate(Math.min(FIRST_BUFFER_BYTES, config.bufferSize()));
        } else if (in.limit() == in.capacity() && in.capacity() < config.bufferSize()) {
            in = c.in = ByteBuffer.allocate(Math.min(2 * in.capacity(), config.bufferSize())); // the last read was taken
        }
        in.clear();
        int n = c.channel.read(in);
        c.counters.inc(READS);
        if (n > 0) {
            c.counters.add(BYTES_IN, n);
            if (c.readWork != null) c.readWork.request(); // --work-ns: a calibrated cost per request
            stampActive(c);
        }
        in.flip();
        return n;
    }

    /**
     * Writes all of {@code buf}. A write returns after a part when the socket's send buffer
     * fills, and the next one parks until there is room: that wait is the backpressure.
     */
    protected final void writeFully(VtConnection c, ByteBuffer buf) throws IOException {
        while (true) {
            int w = c.channel.write(buf);
            c.counters.inc(WRITES);
            c.counters.add(BYTES_OUT, w);
            stampActive(c);
            if (!buf.hasRemaining()) return;
            c.counters.inc(PARTIAL_WRITES);
        }
    }

    private void stampActive(VtConnection c) {
        if (!idle.enabled) return;
        long now = sweepClock;
        if (c.lastActive != now) c.lastActive = now; // a volatile store once per sweep, not per call
    }

    /** A connection's thread is done: its counts join the total, and it leaves the table. */
    private void closed(VtConnection c) {
        c.counters.inc(CLOSES);
        c.counters.add(LIVE, -1);
        lock.lock();
        try {
            connections.remove(c);
            closedCounters.addAll(c.counters);
            if (connections.isEmpty()) noConnections.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void sweepUntilStopped() {
        try {
            while (running) {
                Thread.sleep(idle.waitMillis(WaitTimeout.NONE));
                if (!idle.due()) continue;
                idle.advance();
                sweepClock = idle.sweeps;
                int closed = closeIdleConnections();
                if (closed > 0) idle.log(log, ARCH, closed);
            }
        } catch (InterruptedException stopped) {
            // the server is closing everything
        }
    }

    private int closeIdleConnections() {
        int closed = 0;
        lock.lock();
        try {
            for (VtConnection c : connections) {
                // A closed channel is one whose thread is on its way out: count it once.
                if (!c.channel.isOpen() || !idle.isIdle(c.lastActive)) continue;
                closeQuietly(c.channel); // wakes its thread, parked in read or write
                closed++;
            }
            closedCounters.add(IDLE_CLOSES, closed);
        } finally {
            lock.unlock();
        }
        return closed;
    }

    /** Waits until every connection's thread has finished, or {@code nanos} have passed. */
    private void awaitNoConnections(long nanos) {
        lock.lock();
        try {
            while (!connections.isEmpty() && nanos > 0) nanos = noConnections.awaitNanos(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    private void closeEverything() {
        closeQuietly(listener);
        lock.lock();
        try {
            for (VtConnection c : connections) closeQuietly(c.channel);
        } finally {
            lock.unlock();
        }
        awaitNoConnections(CLOSE_GRACE_NANOS); // so that the counters printed next are complete
    }

    /** Closes the listener: a blocked accept ends, and {@link #run} goes on to drain. */
    @Override
    public final void stop() {
        running = false;
        closeQuietly(listener);
    }

    /** The acceptor's table, the closed connections' and the live ones', summed now. */
    @Override
    public final Counters counters() {
        Counters sum = new Counters("waits", LIVE);
        sum.addAll(acceptorCounters);
        lock.lock();
        try {
            sum.addAll(closedCounters);
            for (VtConnection c : connections) sum.addAll(c.counters);
        } finally {
            lock.unlock();
        }
        return sum;
    }

    @Override
    public final String label() {
        return config.label(ARCH);
    }

    /**
     * Runs once, now, over loopback connections, the JDK code a connection's thread runs the
     * first time it sets an option, parks in a read, reads, writes, and is closed under its
     * parked read (as the idle sweep and the drain do) or reset by its peer. Much of that code
     * initializes a class or links a call site on first use (the poller, which starts its threads
     * and opens their epoll descriptors; the option table; the exceptions thrown). Left to the
     * first connections, it would run on one of their virtual threads while the others wait for
     * it pinned, and could come when descriptors have run out.
     */
    private static void exerciseJdkIo() {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (ServerSocketChannel l = ServerSocketChannel.open().bind(loopback)) {
            exerciseOneConnection(l, false);
            exerciseOneConnection(l, true);
            exerciseLinger(l);
        } catch (IOException noLoopback) {
            // best effort: then the first connections do this setup themselves
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void exerciseOneConnection(ServerSocketChannel l, boolean resetByPeer) throws IOException, InterruptedException {
        try (SocketChannel client = SocketChannel.open(l.getLocalAddress()); SocketChannel accepted = l.accept()) {
            Thread echo = Thread.ofVirtual().name("vt-warm-up").start(() -> echoUntilClosed(accepted));
            awaitParked(echo); // nothing is sent before its first read parks, so the park path runs too
            client.write(ByteBuffer.allocate(1));
            client.read(ByteBuffer.allocate(1));
            awaitParked(echo);
            if (resetByPeer) client.setOption(StandardSocketOptions.SO_LINGER, 0).close();
            else accepted.close();
            echo.join(TimeUnit.SECONDS.toMillis(5));
        }
    }

    /** The lingering close's path: the socket adaptor's shutdown and timed read, timing out on a silent client. */
    private static void exerciseLinger(ServerSocketChannel l) throws IOException, InterruptedException {
        try (SocketChannel client = SocketChannel.open(l.getLocalAddress()); SocketChannel accepted = l.accept()) {
            Thread.ofVirtual().name("vt-warm-up").start(() -> {
                try {
                    BlockingLinger.linger(accepted.socket(), new byte[16], Duration.ofMillis(1), 16, new Counters("waits"));
                } catch (IOException ignored) {
                    // best effort, as the rest of the warm-up
                }
            }).join(TimeUnit.SECONDS.toMillis(5));
        }
    }

    private static void awaitParked(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.getState() != Thread.State.WAITING && t.isAlive() && System.nanoTime() < deadline) Thread.sleep(1);
    }

    private static void echoUntilClosed(SocketChannel ch) {
        ByteBuffer buf = ByteBuffer.allocate(16);
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            while (ch.read(buf.clear()) >= 0) ch.write(buf.flip());
        } catch (IOException expected) {
            // closed under its read, or reset
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (Exception ignored) {
            // closing is best effort; there is nothing left to tell the peer
        }
    }
}
