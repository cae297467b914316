package niolab.server.mp;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import niolab.server.base.Arch;
import niolab.server.base.Counters;
import niolab.server.base.NioListener;
import niolab.server.base.Server;
import niolab.server.base.ServerConfig;

/**
 * The {@code mp} architecture: a master that runs N worker JVMs ({@code lab-server lt|et|vt
 * --reuse-port}) on one port and supervises them. The kernel, not the master, spreads the
 * connections: each worker has its own listening socket in one SO_REUSEPORT group, and a new
 * connection goes to the listener its 4-tuple hashes to. The master holds no socket at all.
 *
 * <p>As an {@link Server}, "bind" starts the pool and returns once every worker is
 * listening (so the ready line never races a half-started pool), and the "loop" is the
 * supervision loop: one thread handling one queue of events (worker ready, worker exited,
 * stop requested) and two timers (restart due, start taking too long).
 *
 * <p>Supervision policy. A worker that exits unexpectedly is restarted: at once if it had been
 * serving, after 100, 200, 400, 800, 1600 ms if it died before it was ready. The master gives
 * up on the pool, stops the other workers and exits 1, when one slot has had
 * {@value #FAILED_STARTS_LIMIT} starts in a row fail before ready (a worker that cannot start,
 * e.g. its port is taken), or {@value #EXITS_LIMIT} unexpected exits within 10 s (a crash loop),
 * or one start rejected with exit status 2 (bad flags: no restart can fix that). A worker not
 * ready after 60 s is killed and counts as a failed start. So every failure ends in bounded time.
 */
public final class MultiProcessMaster implements Server {
    static final int FAILED_STARTS_LIMIT = 5;
    static final int EXITS_LIMIT = 5;
    private static final long EXITS_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long FIRST_RETRY_DELAY_MS = 100;
    private static final long MAX_RETRY_DELAY_MS = 1600;
    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** Workers drain for up to 2 s after SIGTERM; stragglers get SIGKILL after this. */
    private static final long STOP_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long IDLE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** LabServer's exit status for bad flags. */
    private static final int BAD_FLAGS_STATUS = 2;

    private final ServerConfig config;
    private final Arch workerArch;
    private final boolean migrate;
    /** A worker's command line after its architecture, but for what the master decides: host, port, SO_REUSEPORT, its stdin. */
    private final List<String> workerArgs;
    private final PrintStream out = System.out;
    private final PrintStream err = System.err;
    private final BlockingQueue<PoolEvent> events = new LinkedBlockingQueue<>();
    private final Worker[] workers;
    private volatile boolean running = true;

    private WorkerCommand command;
    /** The shared port; 0 until the first worker has reported the one the kernel picked. */
    private int port;
    /** The workers' own label, e.g. {@code lt, echo}. */
    private String workerLabel = "?";
    private boolean poolReady;

    /** @param workerArgs the options each worker parses, as the user gave them ({@link WorkerCommand}) */
    public MultiProcessMaster(ServerConfig config, int workerCount, Arch workerArch, List<String> workerArgs, boolean migrate) {
        this.config = config;
        this.workerArch = workerArch;
        this.migrate = migrate;
        this.workerArgs = workerArgs;
        this.workers = new Worker[workerCount];
        for (int i = 0; i < workerCount; i++) workers[i] = new Worker(i + 1, waitName(), events, out, err);
    }

    /** Starts every worker and returns once all of them listen; the master itself binds nothing. */
    @Override
    public InetSocketAddress bind() throws IOException {
        // Resolved once, here, so that every worker binds the same literal address, hence the
        // same socket family (lt and et both open AF_INET for an IPv4 address, AF_INET6 for an
        // IPv6 one) and so the same SO_REUSEPORT group: an AF_INET and a dual-stack AF_INET6
        // listener on one port do not share the load, one of them gets it all.
        InetAddress address = InetAddress.getByName(config.host());
        if (migrate) MigrateSysctl.report(out, err);
        command = new WorkerCommand(workerArch, address.getHostAddress(), workerArgs);
        port = config.port();
        if (port != 0) probe(address, port);
        try {
            // Port 0: the first worker alone asks the kernel for a port; the others join it there.
            if (port == 0) {
                launch(workers[0]);
            } else {
                for (Worker w : workers) launch(w);
            }
            while (!allReady()) step();
        } catch (IOException | RuntimeException e) {
            stopAll();
            throw e;
        }
        poolReady = true;
        return new InetSocketAddress(address, port);
    }

    /**
     * Binds the port for a moment, as a worker would (SO_REUSEPORT, the address's own family),
     * so that a port another program holds is one line at once, not a pool of workers failing
     * to start one after the other until the master gives up.
     */
    private static void probe(InetAddress address, int port) throws IOException {
        NioListener.open(new InetSocketAddress(address, port), 1, true).close();
    }

    /** Supervises until stopped; then stops the workers and prints each one's counters. */
    @Override
    public void run() throws IOException {
        try {
            while (running) step();
        } finally {
            stopAll();
            for (Worker w : workers) {
                out.println(w.tag + "counters: " + w.total().format() + " restarts=" + w.restarts);
            }
            out.flush();
        }
    }

    /** Handles at most one event, waiting no longer than the next timer, then fires due timers. */
    private void step() throws IOException {
        PoolEvent e;
        try {
            e = events.poll(nanosToNextTimer(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while supervising the workers");
        }
        if (e != null) handle(e);
        fireTimers();
    }

    private void handle(PoolEvent e) throws IOException {
        switch (e.kind()) {
            case READY:
                onReady(e);
                break;
            case EXITED:
                onExit(e.life(), e.status());
                break;
            default:
                break; // WAKE: only makes step() return, so the loop sees running == false
        }
    }

    private void onReady(PoolEvent e) throws IOException {
        Worker.Life life = e.life();
        Worker w = life.worker;
        if (w.life != life || !running) return;
        life.ready = true;
        w.failedStartsInARow = 0;
        if (port == 0) {
            port = e.ready().port();
            for (int i = 1; i < workers.length; i++) launch(workers[i]);
        }
        workerLabel = e.ready().label();
        if (poolReady) out.println(w.tag + "restarted; the pool is whole again");
    }

    private void onExit(Worker.Life life, int status) throws IOException {
        Worker w = life.worker;
        w.ended(life);
        if (!running) return; // we are stopping them
        long now = System.nanoTime();
        String how = "exited with status " + describeStatus(status) + (life.ready ? "" : " before it was ready");
        // BEGIN SOLUTION mp-restart
        // STUB: // TODO lab 4: supervise. As here, any exit ends the pool. Restart a worker that exits: at once if
        // STUB: // it was serving, after 100, 200, 400... ms (up to MAX_RETRY_DELAY_MS) if it died before it was ready.
        // STUB: // Give up (throw an IOException saying why) on a start rejected with BAD_FLAGS_STATUS, on
        // STUB: // FAILED_STARTS_LIMIT failed starts in a row, or on EXITS_LIMIT exits within EXITS_WINDOW_NANOS.
        // STUB: // A restart is w.restartPending and w.restartAt (System.nanoTime() based, as `now`); fireTimers()
        // STUB: // launches it when it is due. What you count with: life.ready (it had said it was serving),
        // STUB: // w.failedStartsInARow (onReady resets it), w.recentExits (a deque of exit times) and
        // STUB: // life.firstError (the worker's first error line, for your message); FIRST_RETRY_DELAY_MS.
        // STUB: err.println(w.tag + how + "; giving up");
        // STUB: throw new IOException("gave up on worker w" + w.id + ": it " + how + " (lab 4: no supervision yet)");
        if (!life.ready) w.failedStartsInARow++;
        w.recentExits.addLast(now);
        while (now - w.recentExits.peekFirst() > EXITS_WINDOW_NANOS) w.recentExits.removeFirst();

        String giveUpBecause = null;
        if (!life.ready && status == BAD_FLAGS_STATUS) {
            giveUpBecause = "it rejected its command line";
        } else if (w.failedStartsInARow >= FAILED_STARTS_LIMIT) {
            giveUpBecause = FAILED_STARTS_LIMIT + " starts in a row failed before it was ready";
        } else if (w.recentExits.size() >= EXITS_LIMIT) {
            giveUpBecause = "it exited " + EXITS_LIMIT + " times within 10 s";
        }
        if (giveUpBecause != null) {
            err.println(w.tag + how + "; giving up");
            String error = life.firstError == null ? "" : " (it said: " + life.firstError.replaceFirst("^error: ", "") + ")";
            throw new IOException("gave up on worker w" + w.id + ": " + giveUpBecause + error);
        }
        long delayMs = life.ready ? 0 : Math.min(FIRST_RETRY_DELAY_MS << (w.failedStartsInARow - 1), MAX_RETRY_DELAY_MS);
        err.println(w.tag + how + "; restarting" + (delayMs > 0 ? " in " + delayMs + " ms" : ""));
        w.restartPending = true;
        w.restartAt = now + TimeUnit.MILLISECONDS.toNanos(delayMs);
        // END SOLUTION
    }

    private void fireTimers() throws IOException {
        long now = System.nanoTime();
        for (Worker w : workers) {
            if (w.restartPending && now - w.restartAt >= 0 && running) {
                w.restarts++;
                launch(w);
            }
            Worker.Life l = w.life;
            if (l != null && !l.ready && !l.killed && now - l.startedAt > START_TIMEOUT_NANOS) {
                err.println(w.tag + "not ready after " + TimeUnit.NANOSECONDS.toSeconds(START_TIMEOUT_NANOS) + " s; killing it");
                l.killed = true;
                l.process.toHandle().destroyForcibly(); // its exit then counts as a failed start
            }
        }
    }

    private long nanosToNextTimer() {
        long now = System.nanoTime();
        long wait = IDLE_WAIT_NANOS;
        for (Worker w : workers) {
            if (w.restartPending) wait = Math.min(wait, w.restartAt - now);
            Worker.Life l = w.life;
            if (l != null && !l.ready && !l.killed) wait = Math.min(wait, l.startedAt + START_TIMEOUT_NANOS - now);
        }
        return Math.max(0, wait);
    }

    private void launch(Worker w) throws IOException {
        w.launch(command.forPort(port));
    }

    private boolean allReady() {
        for (Worker w : workers) {
            if (w.life == null || !w.life.ready) return false;
        }
        return true;
    }

    /**
     * SIGTERM to every worker (each drains its connections and prints its counters), SIGKILL to
     * those still running after the grace period; returns once every worker has exited (bounded).
     */
    private void stopAll() {
        running = false;
        for (Worker w : workers) {
            w.restartPending = false;
            // Through the handle: Process.destroy() would also close our end of its output
            // pipes and lose the counters line it prints on the way out.
            if (w.life != null) w.life.process.toHandle().destroy();
        }
        awaitExits(STOP_GRACE_NANOS);
        for (Worker w : workers) {
            if (w.life == null) continue;
            err.println(w.tag + "still running " + TimeUnit.NANOSECONDS.toSeconds(STOP_GRACE_NANOS)
                    + " s after SIGTERM; killing it");
            w.life.process.toHandle().destroyForcibly();
        }
        awaitExits(STOP_GRACE_NANOS);
    }

    private void awaitExits(long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        while (anyAlive()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return;
            try {
                PoolEvent e = events.poll(left, TimeUnit.NANOSECONDS);
                if (e != null && e.kind() == PoolEvent.Kind.EXITED) onExit(e.life(), e.status());
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException cannotHappen) {
                // onExit neither restarts nor gives up while stopping
            }
        }
    }

    private boolean anyAlive() {
        for (Worker w : workers) {
            if (w.life != null) return true;
        }
        return false;
    }

    /** {@code 137 (SIGKILL)}: the JDK reports death by signal N as status 128 + N. */
    static String describeStatus(int status) {
        if (status <= 128 || status > 128 + 64) return Integer.toString(status);
        int sig = status - 128;
        String name;
        switch (sig) {
            case 1: name = "SIGHUP"; break;
            case 2: name = "SIGINT"; break;
            case 3: name = "SIGQUIT"; break;
            case 6: name = "SIGABRT"; break;
            case 9: name = "SIGKILL"; break;
            case 11: name = "SIGSEGV"; break;
            case 13: name = "SIGPIPE"; break;
            case 15: name = "SIGTERM"; break;
            default: name = "signal " + sig; break;
        }
        return status + " (" + name + ")";
    }

    @Override
    public void stop() {
        running = false;
        events.offer(PoolEvent.wake());
    }

    /** The sum over every worker and every life; read by the stats printer while the pool runs. */
    @Override
    public Counters counters() {
        Counters sum = new Counters(waitName());
        for (Worker w : workers) sum.addAll(w.total());
        return sum;
    }

    @Override
    public String label() {
        return "mp: " + workers.length + " x " + workerLabel;
    }

    /** What the workers' counters call their wait. */
    String waitName() {
        switch (workerArch) {
            case ET: return "epoll_waits";
            case URING: return "enters";
            case VT: return "waits";
            default: return "selects";
        }
    }
}
