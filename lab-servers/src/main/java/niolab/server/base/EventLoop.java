package niolab.server.base;

import static niolab.server.base.Counter.ACCEPTS;
import static niolab.server.base.Counter.CLOSES;
import static niolab.server.base.Counter.IDLE_CLOSES;
import static niolab.server.base.Counter.LINGER_BYTES;
import static niolab.server.base.Counter.LINGER_CLOSES;
import static niolab.server.base.Counter.LINGER_TIMEOUTS;
import static niolab.server.base.Counter.LIVE;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
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
 * The timers are the {@link AcceptBackoff} retry (an accept-failure episode), the
 * {@link IdleSweep} ({@code --idle-timeout}) and the oldest {@link Linger} deadline (HTTP's
 * lingering close); with none running the wait blocks with no timeout at all. A
 * {@link LoopDuty} (a backend) may shorten each wait and runs after it. The base also keeps
 * the {@link Counters} and the count of live connections, which the drain waits on.
 *
 * <p>What a subclass writes: {@link #listen} (open the listener, add it to what the loop waits
 * on), {@link #waitAndDispatch} (select, epoll_wait, io_uring_enter and the dispatch of what it
 * returns; accepting, reading and writing are called from there), {@link #resumeAccepting},
 * {@link #closeListener}, {@link #closeIdleConnections}, {@link #closeEverything} and
 * {@link #wakeUp}, over its own connection table. It calls {@link #opened()} and
 * {@link #closed()} as connections come and go.
 *
 * <p>HTTP's lingering close: after a closing answer has gone out whole, the subclass shuts its
 * sending side and calls {@link #linger}; it then reads what the connection still sends into
 * its usual buffer and reports it to {@link #discarded}, closes at end of stream, and calls
 * {@link #lingerEnded} from its close. The skeleton keeps the deadlines, bounds the wait by the
 * oldest, and closes what is overdue through {@link #closeLingering}.
 */
public abstract class EventLoop implements Server {
    /** The wait's timeout when no timer is running: block until an event. */
    protected static final long NO_TIMEOUT = WaitTimeout.NONE;
    private static final long DRAIN_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long DRAIN_WAIT_MS = 50;

    protected final ServerConfig config;
    /** The {@code --mistake}s this loop makes on purpose; each is tested at its marked spot. */
    protected final Mistakes mistakes;
    protected final Counters counters;
    /** {@code --work-ns} of an echo loop, per read that returns bytes; null without it, and for HTTP. */
    protected final BusyWork readWork;
    /** {@code --work-ns} of an HTTP loop, per request: handed to each connection's parser; null without it, and for echo. */
    protected final BusyWork requestWork;
    protected final IdleSweep idle;
    protected final AcceptBackoff acceptBackoff;
    private final Linger linger;
    protected final PrintStream log = System.err;
    private final String arch;
    /** What starts this loop's log lines: the architecture, or one loop of several. */
    private String logName;
    private volatile boolean running = true;
    /** What runs around each wait besides the connections: {@link LoopDuty#NONE}, or a backend. */
    LoopDuty duty = LoopDuty.NONE;
    /** MISTAKE herd: the loops polling one listener ({@link SharedListener}); null while the listener is this loop's own. */
    SharedListener sharedListener;

    protected EventLoop(String arch, ServerConfig config, Counters counters) {
        this.arch = arch;
        this.logName = arch;
        this.config = config;
        this.mistakes = config.mistakes();
        this.counters = counters;
        this.readWork = BusyWork.perRead(config, counters);
        this.requestWork = BusyWork.perRequest(config, counters);
        this.idle = new IdleSweep(config.idleTimeout());
        this.acceptBackoff = new AcceptBackoff(arch, log, mistakes.noAcceptBackoff);
        this.linger = new Linger(config.lingerTime(), config.lingerBytes());
        if (config.protocol() == Protocol.HTTP) counters.declare(Counter.LINGER_ROWS);
    }

    @Override
    public final InetSocketAddress bind() throws IOException {
        InetSocketAddress bound = listen();
        duty.start();
        return bound;
    }

    @Override
    public final void run() throws IOException {
        try {
            openOnLoopThread();
            while (running) {
                waitOnce(linger.waitMillis(idle.waitMillis(acceptBackoff.waitMillis())));
                runDueTimers();
            }
            drain();
        } finally {
            try {
                duty.close();
            } finally {
                closeEverything();
            }
        }
    }

    /** One wait and its events, bounded also by the duty, which then does its part. */
    private void waitOnce(long timeoutMs) throws IOException {
        waitAndDispatch(duty.boundWait(timeoutMs));
        duty.afterWait();
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
        closeOverdueLingers();
    }

    private void closeOverdueLingers() {
        for (LoopConnection c; (c = linger.overdue()) != null; ) {
            counters.inc(LINGER_CLOSES);
            counters.inc(LINGER_TIMEOUTS);
            closeLingering(c);
        }
    }

    /**
     * {@code c} has sent its closing answer whole and shut its sending side: from now on it
     * lingers, until its end of stream, {@code --linger-bytes} or {@code --linger-time}.
     */
    protected final void linger(LoopConnection c) {
        linger.add(c);
    }

    /** {@code n} bytes read from lingering {@code c} were dropped; true if that reached {@code --linger-bytes}: close it. */
    protected final boolean discarded(LoopConnection c, long n) {
        counters.add(LINGER_BYTES, n);
        c.lingerBytes += n;
        if (c.lingerBytes < linger.maxBytes) return false;
        counters.inc(LINGER_TIMEOUTS);
        return true;
    }

    /** {@code c} is being closed; if it was lingering, the linger ends here. Call it from every close. */
    protected final void lingerEnded(LoopConnection c) {
        if (linger.remove(c)) counters.inc(LINGER_CLOSES);
    }

    /** Closes lingering {@code c}: its time is up (it is off the linger queue already). */
    protected abstract void closeLingering(LoopConnection c);

    /** Stop accepting, let connections finish their exchanges for a short grace, then return. */
    private void drain() throws IOException {
        closeListener();
        long deadline = System.nanoTime() + DRAIN_GRACE_NANOS;
        while (counters.get(LIVE) > 0 && deadline - System.nanoTime() > 0) {
            waitOnce(linger.waitMillis(DRAIN_WAIT_MS));
            closeOverdueLingers();
        }
    }

    /**
     * Makes {@code duty} this loop's (one at most): started after {@link #listen}, run around
     * each wait, closed before {@link #closeEverything}. Call it from the constructor; returns it.
     */
    protected final <D extends LoopDuty> D addDuty(D duty) {
        this.duty = duty;
        return duty;
    }

    /** Opens the listening socket and adds it to what the loop waits on; returns the bound address. */
    protected abstract InetSocketAddress listen() throws IOException;

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

    /**
     * MISTAKE blocking-on-loop: a 1 ms sleep standing for a synchronous call made on the loop
     * thread (a DNS lookup, a JDBC query, a log flush to a slow disk): while it lasts, no other
     * connection is served, so the loop does at most about 1000 of them a second in all.
     */
    protected static void blockTheLoop() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** MISTAKE unbounded-output: a connection reached the switch's safety cap and is being closed. */
    protected final void logOutputCap() {
        log.print(logName);
        log.print(": unbounded-output: ");
        log.print(UnboundedOutput.CAP >> 20);
        log.println(" MiB queued for a client that does not read; closing it before memory runs out");
    }

    /** The extra counter rows lt and et print: empty accepts where several loops share the port (the herd shows there). */
    protected static Counter[] acceptRows(ServerConfig config) {
        return config.loops() > 1 ? new Counter[] {Counter.EMPTY_ACCEPTS} : new Counter[0];
    }

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
        return config.label(arch);
    }
}
