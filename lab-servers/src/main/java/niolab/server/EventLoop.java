package niolab.server;

import static niolab.server.Counter.ACCEPTS;
import static niolab.server.Counter.CLOSES;
import static niolab.server.Counter.IDLE_CLOSES;
import static niolab.server.Counter.LIVE;

import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * The skeleton every event loop shares, so that an architecture's class holds only its own
 * calls. The duty cycle is one line:
 *
 * <pre>
 *   while (running) { waitAndDispatch(the timeout the timers allow); runDueTimers(); }
 *   drain();            // stop accepting, let open connections finish for a grace period
 *   closeEverything();  // whatever is left
 * </pre>
 *
 * The timers are the {@link AcceptBackoff} retry (an accept-failure episode) and the
 * {@link IdleSweep} ({@code --idle-timeout}); with neither running the wait blocks with no
 * timeout at all. The base also keeps the {@link Counters} and the count of live connections,
 * which the drain waits on.
 *
 * <p>What a subclass writes: {@link #waitAndDispatch} (select, epoll_wait, io_uring_enter and
 * the dispatch of what it returns; accepting, reading and writing are called from there),
 * {@link #resumeAccepting}, {@link #closeListener}, {@link #closeIdleConnections},
 * {@link #closeEverything} and {@link #wakeUp}, over its own connection table. It calls
 * {@link #opened()} and {@link #closed()} as connections come and go.
 */
public abstract class EventLoop implements EventLoopServer {
    /** The wait's timeout when no timer is running: block until an event. */
    protected static final long NO_TIMEOUT = -1;
    private static final long DRAIN_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long DRAIN_WAIT_MS = 50;

    protected final ServerOptions options;
    protected final Counters counters;
    protected final IdleSweep idle;
    protected final AcceptBackoff acceptBackoff;
    protected final PrintStream log = System.err;
    private final String arch;
    /** What starts this loop's log lines: the architecture, or one loop of several. */
    private String logName;
    private final String protocol;
    private volatile boolean running = true;

    protected EventLoop(String arch, ServerOptions options, Counters counters) {
        this.arch = arch;
        this.logName = arch;
        this.protocol = options.protocol.toString();
        this.options = options;
        this.counters = counters;
        this.idle = new IdleSweep(options.idleTimeout);
        this.acceptBackoff = new AcceptBackoff(arch, log);
    }

    @Override
    public final void run() throws IOException {
        try {
            openOnLoopThread();
            while (running) {
                waitAndDispatch(idle.waitMillis(acceptBackoff.waitMillis()));
                runDueTimers();
            }
            drain();
        } finally {
            closeEverything();
        }
    }

    private void runDueTimers() {
        if (acceptBackoff.due()) {
            acceptBackoff.resume();
            resumeAccepting();
        }
        if (idle.enabled && idle.due()) {
            idle.advance();
            int closed = closeIdleConnections();
            counters.add(IDLE_CLOSES, closed);
            if (closed > 0) idle.log(log, logName, closed);
        }
    }

    /** Stop accepting, let connections finish their exchanges for a short grace, then return. */
    private void drain() throws IOException {
        closeListener();
        long deadline = System.nanoTime() + DRAIN_GRACE_NANOS;
        while (counters.get(LIVE) > 0 && deadline - System.nanoTime() > 0) waitAndDispatch(DRAIN_WAIT_MS);
    }

    /**
     * Opens what must belong to the thread that runs the loop, once, before the first wait:
     * an io_uring ring with SINGLE_ISSUER refuses submissions from any other thread, and
     * {@link #bind()} may run on another one ({@code --loops}, in-process tests).
     */
    protected void openOnLoopThread() throws IOException {
    }

    /**
     * Waits for events, at most {@code timeoutMs} ({@link #NO_TIMEOUT}: until one comes), and
     * handles them; counts the wait and the events.
     */
    protected abstract void waitAndDispatch(long timeoutMs) throws IOException;

    /** The accept backoff is over: poll the listener again (and accept what waits). */
    protected abstract void resumeAccepting();

    /** Closes the listener: the drain has begun; connections still in the backlog are reset. */
    protected abstract void closeListener();

    /** Closes the connections {@link IdleSweep#isIdle} says are idle; returns how many. */
    protected abstract int closeIdleConnections();

    /** Closes every connection, the listener and the loop's own descriptors. */
    protected abstract void closeEverything();

    /** Ends a wait in progress; called from another thread after {@code running} is cleared. */
    protected abstract void wakeUp();

    /** A connection was accepted. */
    protected final void opened() {
        counters.inc(ACCEPTS);
        counters.inc(LIVE);
    }

    /** A connection was closed. */
    protected final void closed() {
        counters.inc(CLOSES);
        counters.add(LIVE, -1);
    }

    /** Names this loop in its log lines, as one of several in the JVM ({@code et loop2}). */
    public final void nameInLogs(String name) {
        logName = name;
        acceptBackoff.rename(name);
    }

    @Override
    public final void stop() {
        running = false;
        wakeUp();
    }

    @Override
    public final Counters counters() {
        return counters;
    }

    @Override
    public String label() {
        return arch + ", " + protocol;
    }
}
