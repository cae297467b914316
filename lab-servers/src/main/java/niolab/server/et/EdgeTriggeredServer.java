package niolab.server.et;

import static niolab.epoll.LibC.EPOLLET;
import static niolab.epoll.LibC.EPOLLIN;
import static niolab.epoll.LibC.EPOLLOUT;
import static niolab.epoll.LibC.EPOLLRDHUP;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import niolab.epoll.Epoll;
import niolab.epoll.EpollEvents;
import niolab.epoll.Errno;
import niolab.epoll.ErrnoException;
import niolab.epoll.LibC;
import niolab.epoll.Sockets;
import niolab.server.Counters;
import niolab.server.EventLoopServer;
import niolab.server.IdleSweep;
import niolab.server.ServerOptions;

/**
 * The {@code et} architecture: one thread calling {@code epoll_wait} itself (through JNA) on
 * raw file descriptors registered with {@code EPOLLET}; no java.nio in the data path. This class
 * is the loop (accept, dispatch, graceful drain, close); a subclass speaks the protocol on each
 * connection event: {@link EdgeTriggeredEchoServer} or {@link EdgeTriggeredHttpServer}.
 *
 * <p>Edge-triggered epoll reports a change of readiness once. Whatever the loop leaves behind
 * after an edge (a connection still in the backlog, bytes still in a socket) is not reported
 * again, so the loop accepts until EAGAIN, and a subclass reads until the socket is drained or
 * stops on purpose and remembers to come back ({@link Connection#mayHaveInput}).
 */
public abstract class EdgeTriggeredServer implements EventLoopServer {
    private static final int MAX_EVENTS = 256;
    /**
     * EPOLLOUT is registered once, for good. Under ET it costs no spinning: it is reported when
     * the send buffer regains room after a short write, not while the socket simply stays
     * writable (the level-triggered trap lt avoids by toggling OP_WRITE). So a partial write
     * needs no epoll_ctl to arm it and none to disarm it; the price is one extra event per
     * connection, the writable edge reported right after it is added.
     */
    private static final int CONNECTION_EVENTS = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    private static final int ACCEPT_RETRY_MS = 100;
    private static final long DRAIN_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    // Hot: used on every event.
    protected final Counters counters = new Counters();
    private final EpollEvents events = new EpollEvents(MAX_EVENTS);
    /** One read buffer for the whole loop: each read is answered (or kept) before the next read. */
    protected final Memory readMemory;
    protected final long readBuffer;
    protected final int bufferSize;
    /** Connections by fd number; grows (rarely) when the kernel hands out a larger fd. */
    private Connection[] connections = new Connection[1024];
    private int epfd = -1;
    private int listenFd = -1;
    private int wakeFd = -1;
    private int openConnections;
    private final IdleSweep idle;

    // Cold: setup, stop, accept failures.
    protected final ServerOptions options;
    private final String protocol;
    private final PrintStream log = System.err;
    /** The 8-byte value stop() writes to the eventfd. */
    private final Memory wakeValue = new Memory(8);
    private Epoll epoll;
    private volatile boolean running = true;
    /** Accepting failed (EMFILE...) and is retried on a timer; the listen edge is spent meanwhile. */
    private boolean acceptPaused;
    private long acceptRetryAt;
    /** A failure episode is under way: it has been logged once. */
    private boolean acceptFailing;

    protected EdgeTriggeredServer(ServerOptions options, String protocol) {
        this.options = options;
        this.protocol = protocol;
        this.bufferSize = options.bufferSize;
        this.readMemory = new Memory(bufferSize);
        this.readBuffer = Pointer.nativeValue(readMemory);
        wakeValue.setLong(0, 1);
        this.idle = new IdleSweep(options.idleTimeout);
        // Load these now: after EMFILE, loading a class from the class path may need a descriptor.
        Errno.name(Errno.EMFILE);
        Connection.class.getName();
    }

    @Override
    public InetSocketAddress bind() throws IOException {
        InetSocketAddress at = new InetSocketAddress(InetAddress.getByName(options.host), options.port);
        try {
            listenFd = Sockets.listen(at, options.backlog, options.reusePort);
        } catch (ErrnoException e) {
            if (!e.call().equals("bind")) throw e;
            // ServerRunner turns a BindException into the same one-line errors as lt's.
            BindException b = new BindException(e.getMessage());
            b.initCause(e);
            throw b;
        }
        epoll = Epoll.create();
        epfd = epoll.fd();
        addToEpoll(listenFd, EPOLLIN | EPOLLET);
        synchronized (this) {
            wakeFd = ErrnoException.check("eventfd", LibC.eventfd(0, LibC.EFD_NONBLOCK | LibC.EFD_CLOEXEC));
        }
        addToEpoll(wakeFd, EPOLLIN | EPOLLET);
        return Sockets.localAddress(listenFd);
    }

    private void addToEpoll(int fd, int interest) throws ErrnoException {
        int err = epoll.add(fd, interest, fd);
        if (err != 0) throw new ErrnoException("epoll_ctl", err);
    }

    @Override
    public void run() throws IOException {
        try {
            while (running) {
                // Block without a timeout unless a paused accept has to be retried or an idle sweep is due.
                dispatch(waitForEvents((int) idle.waitMillis(acceptPaused ? ACCEPT_RETRY_MS : -1, -1)));
                if (acceptPaused && System.nanoTime() - acceptRetryAt >= 0) {
                    acceptPaused = false;
                    acceptAll();
                }
                if (idle.enabled && idle.due()) closeIdleConnections();
            }
            drain();
        } finally {
            closeEverything();
        }
    }

    private int waitForEvents(int timeoutMs) throws ErrnoException {
        int n = LibC.epoll_wait(epfd, events.pointer(), MAX_EVENTS, timeoutMs);
        counters.waits++;
        if (n >= 0) {
            counters.events += n;
            return n;
        }
        int err = LibC.errno();
        if (err == Errno.EINTR) return 0; // a signal landed on this thread: wait again
        throw new ErrnoException("epoll_wait", err);
    }

    /** Handles one batch. Each fd appears at most once per batch, so an fd closed and reused within it is never mixed up. */
    private void dispatch(int n) {
        for (int i = 0; i < n; i++) {
            int fd = (int) events.data(i);
            if (fd == listenFd) {
                if (!acceptPaused) acceptAll();
            } else if (fd != wakeFd) { // the eventfd only ends epoll_wait; `running` says why
                Connection c = connections[fd];
                c.lastActive = idle.sweeps; // one store, whether --idle-timeout is on or not: cheaper than a branch
                onConnectionEvent(c, events.events(i));
            }
        }
    }

    /** Accepts until EAGAIN: one edge announces a whole burst, and what stays in the backlog raises no new one. */
    private void acceptAll() {
        while (true) {
            int fd = LibC.accept4(listenFd, null, null, LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC);
            if (fd >= 0) {
                counters.accepts++;
                open(fd);
                continue;
            }
            int err = LibC.errno();
            if (err == Errno.EAGAIN) {
                // The backlog is drained: a failure episode, if any, is over. (Not at the first
                // accept that works: freed descriptors let a few in, then accept fails again.)
                acceptFailing = false;
                return;
            }
            if (err == Errno.EINTR || err == Errno.ECONNABORTED) continue; // that one is gone; the rest wait
            pauseAccepting(err);
            return;
        }
    }

    private void open(int fd) {
        Sockets.setFlag(fd, LibC.IPPROTO_TCP, LibC.TCP_NODELAY); // as lt does; a failure only costs latency
        if (fd >= connections.length) connections = Arrays.copyOf(connections, Math.max(fd + 1, 2 * connections.length));
        Connection c = connections[fd];
        if (c == null) connections[fd] = c = new Connection();
        c.open(fd, idle.sweeps);
        openConnections++;
        // epoll_ctl(ADD) polls the socket at once: bytes sent before the accept still raise an edge.
        if (epoll.add(fd, CONNECTION_EVENTS, fd) != 0) fail(c); // ENOMEM, ENOSPC (max_user_watches)
    }

    /**
     * Something happened on {@code c}: {@code ready} holds the epoll bits. Under ET each is
     * reported once, so whatever the subclass leaves unread it must remember itself.
     */
    protected abstract void onConnectionEvent(Connection c, int ready);

    /**
     * One read(2) of {@code c} into the shared read buffer: the byte count; 0 when the socket is
     * drained (EAGAIN); -1 when the connection is over and has been closed. At EOF everything
     * read so far has been answered (no read happens while output is pending), so the exchange
     * is complete and our side closes too; a failure (ECONNRESET...) ends this connection only.
     */
    protected final long read(Connection c) {
        while (true) {
            long n = LibC.read(c.fd, readBuffer, bufferSize);
            counters.reads++;
            if (n > 0) {
                counters.bytesIn += n;
                return n;
            }
            if (n == 0) {
                close(c);
                return -1;
            }
            int err = LibC.errno();
            if (err == Errno.EAGAIN) {
                counters.readsEagain++;
                return 0;
            }
            if (err != Errno.EINTR) {
                fail(c);
                return -1;
            }
        }
    }

    /** send(2) with MSG_NOSIGNAL (a closed peer is EPIPE, not SIGPIPE); bytes sent, 0 on EAGAIN, -1 on failure. */
    protected final long send(int fd, long address, long length) {
        while (true) {
            long w = LibC.send(fd, address, length, LibC.MSG_NOSIGNAL);
            counters.writes++;
            if (w >= 0) {
                counters.bytesOut += w;
                return w;
            }
            int err = LibC.errno();
            if (err == Errno.EAGAIN) {
                counters.writesEagain++;
                return 0;
            }
            if (err != Errno.EINTR) return -1;
        }
    }

    /**
     * Out of descriptors (or another accept failure). Under ET the listen edge is spent, and the
     * connections left in the backlog will raise no new one, so retry on a timer (epoll_wait's
     * timeout) rather than at once, which would spin. They wait in the backlog meanwhile and are
     * served when descriptors free up; the spare-fd trick would instead accept and close them.
     */
    private void pauseAccepting(int err) {
        counters.acceptFailures++;
        acceptPaused = true;
        acceptRetryAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ACCEPT_RETRY_MS);
        if (!acceptFailing) {
            acceptFailing = true;
            // Constant strings only: concatenation may load classes, which needs descriptors we lack.
            log.print("et: accept4 failed: ");
            log.print(Errno.name(err));
            log.print(" (");
            log.print(Errno.message(err));
            log.println("); pausing accepts, retrying every 100 ms");
        }
    }

    /** {@code --idle-timeout}: closes the connections that have had no event for that long (slowloris). */
    private void closeIdleConnections() {
        idle.advance();
        int closed = 0;
        for (Connection c : connections) {
            if (c == null || c.fd < 0 || !idle.isIdle(c.lastActive)) continue;
            close(c);
            closed++;
        }
        counters.idleCloses += closed;
        if (closed > 0) idle.log(log, "et", closed);
    }

    /** Stop accepting, let connections finish their exchanges for a short grace, then close. */
    private void drain() throws ErrnoException {
        LibC.close(listenFd); // also leaves the epoll set; the backlog's connections are reset
        listenFd = -1;
        acceptPaused = false;
        long deadline = System.nanoTime() + DRAIN_GRACE_NANOS;
        while (openConnections > 0 && deadline - System.nanoTime() > 0) {
            dispatch(waitForEvents(50));
        }
    }

    protected final void fail(Connection c) {
        counters.resets++;
        close(c);
    }

    protected final void close(Connection c) {
        LibC.close(c.fd); // closing the last reference also removes it from the epoll set
        c.closed();
        counters.closes++;
        openConnections--;
    }

    private void closeEverything() {
        for (Connection c : connections) {
            if (c != null && c.fd >= 0) close(c);
        }
        if (listenFd >= 0) LibC.close(listenFd);
        listenFd = -1;
        synchronized (this) {
            if (wakeFd >= 0) LibC.close(wakeFd);
            wakeFd = -1;
        }
        if (epoll != null) epoll.close();
        events.close();
        readMemory.close();
    }

    /** Safe from any thread: ends a blocked epoll_wait by making the eventfd readable. */
    @Override
    public synchronized void stop() {
        running = false;
        if (wakeFd >= 0) LibC.write(wakeFd, Pointer.nativeValue(wakeValue), 8);
    }

    @Override
    public Counters counters() {
        return counters;
    }

    @Override
    public String label() {
        return "et, " + protocol;
    }

    @Override
    public String waitName() {
        return "epoll_waits";
    }
}
