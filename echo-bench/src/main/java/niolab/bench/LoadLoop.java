package niolab.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One client thread: a {@link Selector} driving its share of the connections (connection
 * {@code k} of {@code C} belongs to loop {@code k mod T}). Concurrent short connections,
 * keep-alive and pipelined keep-alive, closed-loop or on a {@code --rate} schedule.
 *
 * <p>The loop is {@code while (active > 0) { scan if due; select(this) }}: readiness events drive
 * each connection's state machine ({@link #accept}), and a scan at least every 10 ms (sooner when
 * a scheduled request or a timeout is due) handles what no event announces: timeouts, due
 * requests, retries, the end of the run. Failures of any kind end up in {@link #fail}, one place.
 *
 * <p>The keep-alive request path allocates nothing: buffers and the in-flight ring live in the
 * {@link Connection}, the selector calls {@code this} (no selected-key set, no lambda), and
 * latencies go into single-writer recorders. A short connection needs a new socket per request,
 * which is the cost that mode measures.
 *
 * <p>{@code epoll_wait} (hence {@code select(ms)}) has millisecond timeouts: too coarse for a
 * {@code --rate} schedule, and spinning would steal the core the server needs. Under
 * {@code --rate} a small {@link Timer} thread parks until the next due time ({@code parkNanos},
 * tens of µs of timer slack) and calls {@link Selector#wakeup()}; sends then start within about
 * 0.1 ms of their intended time, and the corrected latency includes whatever lateness remains.
 */
final class LoadLoop implements Runnable, Consumer<SelectionKey> {
    private static final long SCAN_NANOS = 10_000_000L;
    /** Back-off after a failed connect, so a dead server is not hammered by a tight loop. */
    private static final long RETRY_NANOS = 10_000_000L;

    final LoopStats stats;
    private final LoadSpec spec;
    private final Codec codec;
    private final Connection[] conns;
    private final boolean keepAlive;
    private final boolean rated;
    private final int depth;
    private final long timeout;
    /** No request starts at or after this nanoTime. */
    private final long endNanos;
    /** Requests this loop may still start. */
    private long budget;
    private int active;
    /** The next time the connections must be scanned. */
    private long wake;
    private Selector selector;
    private Timer timer;

    LoadLoop(LoadSpec spec, int loop, long startNanos, long budget, long endNanos) {
        this.spec = spec;
        this.codec = spec.codec;
        this.keepAlive = spec.keepAlive;
        this.rated = spec.rate > 0;
        this.depth = spec.keepAlive ? spec.pipeline : 1;
        this.timeout = spec.timeoutNanos;
        this.budget = budget;
        this.endNanos = endNanos;
        this.stats = new LoopStats(rated);
        int n = (spec.connections - loop + spec.threads - 1) / spec.threads;
        this.conns = new Connection[n];
        for (int i = 0; i < n; i++) {
            int k = loop + i * spec.threads;
            conns[i] = new Connection(k, depth, codec, rated ? new RateSchedule(startNanos, spec.rate, spec.connections, k) : null);
        }
    }

    int connections() {
        return conns.length;
    }

    @Override
    public void run() {
        long cpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        try (Selector sel = Selector.open()) {
            selector = sel;
            active = conns.length;
            long now = System.nanoTime();
            wake = now;
            if (rated) timer = Timer.start(sel, Thread.currentThread().getName() + "-timer");
            while (active > 0) {
                if (now >= wake) {
                    scan(now);
                    now = System.nanoTime();
                }
                long wait = wake - now;
                if (wait <= 0) {
                    sel.selectNow(this);
                } else {
                    if (timer != null) timer.at = wake;
                    // rounded up: a millisecond select is the backstop, the timer the precise wake-up
                    sel.select(this, (wait + 999_999L) / 1_000_000L);
                }
                now = System.nanoTime();
            }
        } catch (IOException e) {
            // the selector itself failed: nothing more can be measured on this thread
            long lost = 0;
            for (Connection c : conns) lost += c.inFlight;
            stats.error(ErrorClass.OTHER, Math.max(1, lost), "selector: " + e);
        } finally {
            if (timer != null) timer.stop();
            for (Connection c : conns) close(c);
            stats.cpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
        }
    }

    /** A readiness event: the hot path. */
    @Override
    public void accept(SelectionKey key) {
        Connection c = (Connection) key.attachment();
        long now = System.nanoTime();
        try {
            int ready = key.readyOps();
            if ((ready & SelectionKey.OP_CONNECT) != 0) {
                if (c.channel.finishConnect()) connected(c, now);
                return;
            }
            if ((ready & SelectionKey.OP_WRITE) != 0) flush(c);
            if ((ready & SelectionKey.OP_READ) != 0) read(c, now);
        } catch (IOException e) {
            fail(c, ErrorClass.of(e), e.toString(), now);
        }
    }

    private void scan(long now) {
        long next = now + SCAN_NANOS;
        if (now < endNanos && endNanos < next) next = endNanos;
        for (Connection c : conns) {
            if (c.done) continue;
            if (c.deadline <= now) fail(c, ErrorClass.TIMEOUT, null, now);
            try {
                kick(c, now);
            } catch (IOException e) {
                fail(c, ErrorClass.of(e), e.toString(), now);
            }
            if (c.done) continue;
            long w = nextWake(c);
            if (w < next) next = w;
        }
        wake = next;
    }

    /** Starts whatever this connection may start now: a connect, requests, or its end. */
    private void kick(Connection c, long now) throws IOException {
        if (c.state == Connection.IDLE) {
            if (finished(c, now)) {
                finish(c);
            } else if (now >= c.retryAt) {
                if (keepAlive) {
                    connect(c, now);
                } else if (mayStart(c, now)) {
                    start(c, now);
                    connect(c, now);
                }
            }
        } else if (c.state == Connection.OPEN && keepAlive) {
            fill(c, now);
            if (finished(c, now)) finish(c);
        }
    }

    private long nextWake(Connection c) {
        long w = c.deadline;
        if (c.state == Connection.IDLE && c.retryAt < w) w = c.retryAt;
        if (rated && c.inFlight < depth && (c.state == Connection.OPEN || !keepAlive)) {
            long due = c.schedule.peek();
            if (due < w) w = due;
        }
        return w;
    }

    private boolean finished(Connection c, long now) {
        return c.inFlight == 0 && (budget == 0 || now >= endNanos || (rated && c.schedule.peek() >= endNanos));
    }

    private boolean mayStart(Connection c, long now) {
        return budget > 0 && now < endNanos && (!rated || c.schedule.peek() <= now);
    }

    private void start(Connection c, long now) {
        budget--;
        long intended = now;
        if (rated) {
            intended = c.schedule.next();
            stats.lag(now - intended);
        }
        c.push(intended, now);
    }

    private void connect(Connection c, long now) throws IOException {
        c.out.clear();
        c.in.clear();
        c.state = Connection.CONNECTING;
        c.deadline = now + timeout;
        SocketChannel ch = SocketChannel.open();
        c.channel = ch;
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        if (spec.linger0) ch.setOption(StandardSocketOptions.SO_LINGER, 0);
        if (ch.connect(spec.target)) {
            c.key = ch.register(selector, 0, c);
            connected(c, now);
        } else {
            c.key = ch.register(selector, SelectionKey.OP_CONNECT, c);
            c.interest = SelectionKey.OP_CONNECT;
        }
    }

    private void connected(Connection c, long now) throws IOException {
        c.state = Connection.OPEN;
        if (keepAlive) {
            c.deadline = Long.MAX_VALUE;
            kick(c, now);
            rearm(c);
        } else {
            codec.encodeRequest(c.out); // started (and timed) before the connect
            c.deadline = now + timeout;
            flush(c);
        }
    }

    /** Keep-alive: tops the connection up to its pipeline depth, in one write. */
    private void fill(Connection c, long now) throws IOException {
        int before = c.inFlight;
        while (c.inFlight < depth && mayStart(c, now)) {
            start(c, now);
            codec.encodeRequest(c.out);
        }
        if (c.inFlight != before) {
            if (before == 0) c.deadline = now + timeout;
            flush(c);
        }
    }

    private void flush(Connection c) throws IOException {
        c.out.flip();
        c.channel.write(c.out);
        c.out.compact();
        // OP_WRITE only while part of a request waits for room in the socket buffer
        int want = c.out.position() > 0 ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
        if (want != c.interest) {
            c.key.interestOps(want);
            c.interest = want;
        }
    }

    private void read(Connection c, long now) throws IOException {
        int n = c.channel.read(c.in);
        if (n < 0) {
            eof(c, now);
            return;
        }
        if (n == 0) return;
        c.in.flip();
        while (c.inFlight > 0) {
            int r = codec.decodeResponse(c.in);
            if (r == Codec.NEED_MORE) break;
            if (r < 0) {
                fail(c, ErrorClass.MISMATCH, null, now);
                return;
            }
            complete(c, now);
        }
        if (c.inFlight == 0 && c.in.hasRemaining()) {
            // bytes nobody asked for: the stream is out of step, count it and start over
            stats.error(ErrorClass.MISMATCH, 1, null);
            fail(c, ErrorClass.MISMATCH, null, now);
            return;
        }
        c.in.compact();
        c.deadline = c.inFlight > 0 ? now + timeout : Long.MAX_VALUE;
        if (!keepAlive) {
            if (c.inFlight > 0) return;
            close(c); // after the timestamp: latency excludes the close, as in the serial client
            c.state = Connection.IDLE;
        }
        kick(c, now);
        rearm(c);
    }

    private void complete(Connection c, long now) {
        int h = c.head;
        stats.corrected.recordValue((now - c.intended[h]) / 1000);
        if (stats.uncorrected != null) stats.uncorrected.recordValue((now - c.started[h]) / 1000);
        stats.lastCompletionNanos = now;
        c.pop();
    }

    private void eof(Connection c, long now) {
        if (c.inFlight > 0) {
            fail(c, ErrorClass.SHORT, null, now);
        } else {
            close(c); // a keep-alive connection the server closed while idle: reconnect, no error
            c.state = Connection.IDLE;
            c.deadline = Long.MAX_VALUE;
            if (now < wake) wake = now;
        }
    }

    /** Every failure: counts the requests it lost, drops the socket, and lets a scan restart it. */
    private void fail(Connection c, ErrorClass cls, String detail, long now) {
        if (c.done) return;
        boolean connecting = c.state == Connection.CONNECTING;
        long lost = c.inFlight;
        if (lost == 0 && connecting && budget > 0) {
            budget--; // a failed keep-alive connect costs a request, so a dead server ends the run
            lost = 1;
        }
        if (lost > 0) stats.error(cls, lost, detail);
        close(c);
        c.inFlight = 0;
        c.head = 0;
        c.state = Connection.IDLE;
        c.deadline = Long.MAX_VALUE;
        c.retryAt = connecting ? now + RETRY_NANOS : now;
        if (c.retryAt < wake) wake = c.retryAt;
    }

    private void rearm(Connection c) {
        if (c.done) return;
        long w = nextWake(c);
        if (w < wake) wake = w;
    }

    private void finish(Connection c) {
        c.done = true;
        active--;
        close(c);
    }

    private static void close(Connection c) {
        if (c.channel == null) return;
        try {
            c.channel.close();
        } catch (IOException ignored) {
            // closing a socket we are done with: nothing left to report
        }
        c.channel = null;
        c.key = null;
        c.interest = 0;
    }

    /** Wakes a loop's selector at {@link #at} with sub-millisecond precision (see the class comment). */
    static final class Timer implements Runnable {
        private final Selector selector;
        private final Thread thread;
        volatile long at = Long.MAX_VALUE;
        private volatile boolean running = true;

        private Timer(Selector selector, String name) {
            this.selector = selector;
            this.thread = new Thread(this, name);
            thread.setDaemon(true);
        }

        static Timer start(Selector selector, String name) {
            Timer t = new Timer(selector, name);
            t.thread.start();
            return t;
        }

        @Override
        public void run() {
            long fired = Long.MIN_VALUE;
            while (running) {
                long t = at;
                long d = t - System.nanoTime();
                if (d > 0) {
                    // at most 1 ms asleep, so an earlier time set meanwhile is seen in time
                    LockSupport.parkNanos(Math.min(d, 1_000_000L));
                } else if (t != fired) {
                    fired = t;
                    selector.wakeup();
                } else {
                    LockSupport.parkNanos(100_000L); // the loop has not armed the next time yet
                }
            }
        }

        void stop() {
            running = false;
            LockSupport.unpark(thread);
        }
    }
}
