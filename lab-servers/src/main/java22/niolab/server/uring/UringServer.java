package niolab.server.uring;

import static niolab.server.base.Counter.ACCEPT_FAILURES;
import static niolab.server.base.Counter.BYTES_IN;
import static niolab.server.base.Counter.BYTES_OUT;
import static niolab.server.base.Counter.EVENTS;
import static niolab.server.base.Counter.NO_BUFFERS;
import static niolab.server.base.Counter.PARTIAL_WRITES;
import static niolab.server.base.Counter.READS;
import static niolab.server.base.Counter.RESETS;
import static niolab.server.base.Counter.SUBMISSIONS;
import static niolab.server.base.Counter.WAITS;
import static niolab.server.base.Counter.WRITES;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import niolab.epoll.Bindings;
import niolab.epoll.Errno;
import niolab.epoll.ErrnoException;
import niolab.epoll.Linux;
import niolab.epoll.NativeBuffer;
import niolab.epoll.Sockets;
import niolab.epoll.Syscalls;
import niolab.server.base.Counters;
import niolab.server.base.EventLoop;
import niolab.server.base.LoopConnection;
import niolab.server.base.RawListener;
import niolab.server.base.ServerConfig;
import niolab.uring.CompletionHandler;
import niolab.uring.CompletionQueue;
import niolab.uring.IoUring;
import niolab.uring.SubmissionQueue;
import niolab.uring.UringCapabilities;
import niolab.uring.UringSupport;
import niolab.uring.UserData;

/**
 * The {@code uring} architecture: one thread, io_uring through FFM ({@code native-uring}), raw
 * fds. lt and et wait until the kernel says a socket is ready, then make the call; this loop
 * queues the calls themselves (accept, recv, send, close) as SQEs and handles their results as
 * completions. One io_uring_enter submits what the last batch prepared and waits for the next.
 *
 * <pre>
 *   waitAndDispatch:  ring.submitAndWait(1, timeout)   one io_uring_enter: submit, then wait
 *                     cq.forEach(this)                 onCompletion(userData, res, flags) per CQE
 *   accept CQE  -> open the connection, arm its recv
 *   recv CQE    -> hold the bytes; respond (the protocol subclass): a send
 *   send CQE    -> sent (the subclass): the rest, the next answer, or close; re-arm the recv when allowed
 * </pre>
 *
 * What a {@code --uring-mode} changes lives in {@link RecvBuffers}; what a protocol answers, in
 * {@link UringEchoServer} and {@link UringHttpServer}. As in lt and et, a connection sends one
 * thing at a time, and receives only while what it holds stays within {@code --buffer-size}.
 * The skeleton's timers (accept backoff, idle sweep) bound io_uring_enter's own wait
 * (IORING_ENTER_EXT_ARG), so a retry after EMFILE needs no timeout SQE and never spins.
 */
public abstract class UringServer extends EventLoop implements CompletionHandler {
    // What a completion is for: the op in its user_data; the low 32 bits name a connection's slot.
    private static final int ACCEPT = 1;
    private static final int RECV = 2;
    private static final int SEND = 3;
    private static final int WAKE = 4;
    /** Closes, cancels and buffer give-backs post a completion only if they fail, and then nothing is left to undo. */
    static final long QUIET = UserData.of(5, 0, -1);
    private static final long ACCEPT_DATA = UserData.of(ACCEPT, 0, -1);
    private static final long WAKE_DATA = UserData.of(WAKE, 0, -1);
    private static final int RING_ENTRIES = 1024;
    /**
     * sqpoll: how long the kernel thread polls an empty SQ before it sleeps. Long enough to span
     * a busy loop's gap between two batches, short enough that an idle server gives the core back.
     */
    private static final int SQ_THREAD_IDLE_MS = 10;
    private static final long QUIESCE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long QUIESCE_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    protected final UringMode mode;
    protected final int bufferSize;

    // Hot: used on every completion.
    protected SubmissionQueue sq;
    protected RecvBuffers input;
    private IoUring ring;
    private CompletionQueue cq;
    private ConnectionSlots connections;
    /** Connections whose recv found no free buffer, linked through nextStarved. */
    private UringConnection starved;
    private int listenFd = -1;
    private boolean accepting;

    // Cold: setup and stop.
    private final UringCapabilities capabilities;
    /** Native memory of the loop (buffers, the eventfd's read target), freed when it stops. */
    protected Arena arena;
    private MemorySegment wakeTarget;
    private boolean wakeArmed;
    private boolean quiescing;
    private int wakeFd = -1;
    /** The calls besides the ring's (the listener, the eventfd, shutdown), through FFM as the ring is. */
    private final Syscalls sys = Bindings.ffm();
    /** The 8-byte value wakeUp() writes to the eventfd. */
    private final NativeBuffer wakeValue = NativeBuffer.allocate(sys, 8);

    protected UringServer(ServerConfig config, UringMode mode, UringCapabilities capabilities) {
        super("uring", config, new Counters("enters", SUBMISSIONS, NO_BUFFERS));
        this.mode = mode;
        this.capabilities = capabilities;
        this.bufferSize = config.bufferSize();
        wakeValue.view().order(java.nio.ByteOrder.nativeOrder()).putLong(0, 1);
        // Load these now: after EMFILE, loading a class from the class path may need a descriptor.
        Errno.message(Errno.EMFILE, sys);
        UringConnection.class.getName();
    }

    @Override
    protected InetSocketAddress listen() throws IOException {
        listenFd = RawListener.open(sys, config);
        synchronized (this) {
            wakeFd = ErrnoException.check(sys, "eventfd", sys.eventfd(0, Linux.EFD_NONBLOCK | Linux.EFD_CLOEXEC));
        }
        return Sockets.localAddress(sys, listenFd);
    }

    /** The ring and the buffers, on the loop's thread: with SINGLE_ISSUER only their creator may submit. */
    @Override
    protected void openOnLoopThread() throws IOException {
        arena = Arena.ofConfined();
        ring = mode == UringMode.SQPOLL
                ? IoUring.openSqPoll(RING_ENTRIES, 0, UringSupport.sqPollSetupFlags(), SQ_THREAD_IDLE_MS)
                : IoUring.open(RING_ENTRIES, 0, capabilities.setupFlags());
        sq = ring.sq();
        cq = ring.cq();
        input = switch (mode) {
            case BASIC -> new OwnBuffers(sq, arena, bufferSize);
            case MULTISHOT -> new ProvidedBuffers(sq, arena, bufferSize, capabilities.recvByteLimit());
            case BUFRING, SQPOLL -> RingBuffers.register(ring, bufferSize, capabilities.recvByteLimit());
        };
        connections = new ConnectionSlots(input);
        wakeTarget = arena.allocate(8);
        armWake();
        armAccept();
    }

    /** One io_uring_enter (none if completions are already waiting and nothing is to submit), then the batch. */
    @Override
    protected void waitAndDispatch(long timeoutMs) throws ErrnoException {
        long enters = ring.enterCalls();
        long submitted = ring.submittedSqes();
        long givenBack = input.givenBack;
        ring.submitAndWait(1, timeoutMs < 0 ? -1 : TimeUnit.MILLISECONDS.toNanos(timeoutMs));
        counters.add(EVENTS, cq.forEach(this));
        if (starved != null && input.givenBack != givenBack) rearmStarved();
        counters.add(WAITS, ring.enterCalls() - enters);
        counters.add(SUBMISSIONS, ring.submittedSqes() - submitted);
    }

    @Override
    public final void onCompletion(long userData, int res, int flags) {
        switch (UserData.op(userData)) {
            case RECV -> received(connections.get(UserData.fd(userData)), res, flags);
            case SEND -> sendDone(connections.get(UserData.fd(userData)), res);
            case ACCEPT -> accepted(res, flags);
            case WAKE -> woken(res);
            default -> { } // QUIET: a close, cancel or give-back failed; nothing is left to undo
        }
    }

    private void armAccept() {
        if (mode == UringMode.BASIC) sq.prepareAccept(listenFd, ACCEPT_DATA);
        else sq.prepareAcceptMultishot(listenFd, ACCEPT_DATA); // one SQE accepts until it fails or is cancelled
        accepting = true;
    }

    private void accepted(int res, int flags) {
        if (!CompletionQueue.hasMore(flags)) accepting = false;
        if (res >= 0) {
            // The completion says whether more connections wait (6.10+; an older kernel never
            // does, and then every accept ends an accept-failure episode).
            if (!CompletionQueue.socketNonEmpty(flags)) acceptBackoff.drained();
            open(res);
        } else if (res != -Errno.ECANCELED && res != -Errno.ECONNABORTED && res != -Errno.EINTR) {
            // EMFILE and the like: the connections wait in the backlog until the skeleton's
            // timer calls resumeAccepting(); the failed completion armed nothing, so no spin.
            counters.inc(ACCEPT_FAILURES);
            acceptBackoff.pause("accept", Errno.message(-res, sys));
        }
        if (!accepting && listenFd >= 0 && !acceptBackoff.paused()) armAccept();
    }

    @Override
    protected void resumeAccepting() {
        if (listenFd >= 0 && !accepting) armAccept();
    }

    private void open(int fd) {
        opened();
        Sockets.setFlag(sys, fd, Linux.IPPROTO_TCP, Linux.TCP_NODELAY); // as lt and et; a failure only costs latency
        UringConnection c = connections.take();
        c.open(fd, idle.sweeps);
        armRecv(c);
    }

    /** Arms the recv of {@code c} unless one is armed, nothing more is wanted, or backpressure says wait. */
    private void armRecv(UringConnection c) {
        if (c.recvArmed || c.peerClosed || c.closeAfterSend || c.closing || c.fd < 0) return;
        c.recvArmed = input.arm(c, UserData.of(RECV, 0, c.slot));
    }

    private void received(UringConnection c, int res, int flags) {
        // BEGIN SOLUTION uring-more
        if (!CompletionQueue.hasMore(flags)) {
            c.recvArmed = false;
            c.recvCancelled = false;
        }
        // END SOLUTION
        if (res > 0) {
            counters.inc(READS);
            counters.add(BYTES_IN, res);
            if (readWork != null) readWork.request(); // --work-ns: a calibrated cost per request
            c.lastActive = idle.sweeps;
            int id = input.filled(c, flags);
            if (c.lingering()) {
                input.giveBack(id); // read to be dropped: the answer has gone, the sending side is shut
                if (discarded(c, res)) close(c);
            } else if (c.closing || c.closeAfterSend) {
                input.giveBack(id); // nobody will answer these bytes
            } else {
                input.hold(c, id, res);
                if (!c.sending) respond(c);
            }
        } else if (res == 0) {
            counters.inc(READS);
            c.peerClosed = true;
        } else if (res == -Errno.ENOBUFS) {
            counters.inc(NO_BUFFERS);
            starve(c);
        } else if (res != -Errno.ECANCELED && !c.closing) {
            fail(c); // ECONNRESET, ETIMEDOUT...; ECANCELED is our own cancel
        }
        settle(c);
    }

    /**
     * Every buffer of the pool was in use. Retrying at once would fail the same way, in a loop;
     * so the recv is re-armed at the end of a batch that gave a buffer back.
     */
    private void starve(UringConnection c) {
        if (c.starved) return;
        c.starved = true;
        c.nextStarved = starved;
        starved = c;
    }

    private void rearmStarved() {
        UringConnection c = starved;
        starved = null;
        while (c != null) {
            UringConnection next = c.nextStarved;
            c.nextStarved = null;
            c.starved = false;
            armRecv(c);
            c = next;
        }
    }

    private void sendDone(UringConnection c, int res) {
        c.sending = false;
        if (res >= 0) {
            counters.inc(WRITES);
            counters.add(BYTES_OUT, res);
            if (res < c.sendLength) counters.inc(PARTIAL_WRITES);
            c.lastActive = idle.sweeps;
            if (!c.closing) sent(c, res);
        } else if (!c.closing) {
            fail(c); // EPIPE, ECONNRESET: the peer is gone
        }
        settle(c);
    }

    /**
     * After each completion of {@code c}: close it if its exchange is over; once closed, free its
     * slot when the kernel holds no request of it any more; otherwise re-arm its recv if allowed.
     */
    private void settle(UringConnection c) {
        if (c.isOpen() && c.peerClosed && !c.sending && c.heldHead < 0 && !c.moreToAnswer) close(c);
        if (c.fd < 0) return; // its slot was freed meanwhile
        if (c.closing) {
            if (c.isQuiet()) freeSlot(c);
            return;
        }
        if (c.recvArmed && !c.recvCancelled && input.mustCancel(c)) {
            sq.prepareCancel(UserData.of(RECV, 0, c.slot), QUIET);
            sq.skipCompletionOnSuccess();
            c.recvCancelled = true;
        }
        armRecv(c);
    }

    /**
     * {@code c} holds unanswered input (see {@link RecvBuffers}) and no send is in flight:
     * answer it with {@link #send}, or keep it.
     */
    protected abstract void respond(UringConnection c);

    /** The send of {@code c} completed: {@code n} of its {@code c.sendLength} bytes went out. */
    protected abstract void sent(UringConnection c, int n);

    /** The slot of {@code c} is being freed: give back what the protocol lent it. */
    protected void released(UringConnection c) {
    }

    /** Sends {@code length} bytes at {@code address}, which must stay untouched until the send completes. */
    protected final void send(UringConnection c, long address, int length) {
        sq.prepareSend(c.fd, address, length, UserData.of(SEND, 0, c.slot));
        c.sending = true;
        c.sendAddress = address;
        c.sendLength = length;
    }

    /**
     * The closing answer's send has completed whole: shut the sending side (the client reads
     * the answer, then end of stream) and linger, receiving and dropping what still comes, so
     * that closing on unread bytes cannot reset the connection and destroy the answer (RFC
     * 9112 9.6). One shutdown(2), made directly: it never blocks, and its completion would
     * only say what its return value says.
     */
    protected final void closeAfterAnswer(UringConnection c) {
        if (sys.shutdown(c.fd, Linux.SHUT_WR) != 0) {
            close(c);
            return;
        }
        c.closeAfterSend = false; // settle() arms the recv again, whose completions are dropped
        linger(c);
    }

    @Override
    protected void closeLingering(LoopConnection c) {
        close((UringConnection) c);
    }

    protected final void fail(UringConnection c) {
        counters.inc(RESETS);
        close(c);
    }

    /**
     * Closes {@code c}. A request in flight holds a reference to the socket, so a close alone
     * would neither end it nor send the FIN: the requests are cancelled first, and their last
     * completions free the slot.
     */
    protected final void close(UringConnection c) {
        if (c.closing) return;
        lingerEnded(c);
        c.closing = true;
        if (c.recvArmed || c.sending) {
            sq.prepareCancelFd(c.fd, QUIET);
            sq.skipCompletionOnSuccess();
        }
        sq.prepareClose(c.fd, QUIET);
        sq.skipCompletionOnSuccess();
        closed();
        if (c.isQuiet()) freeSlot(c);
    }

    private void freeSlot(UringConnection c) {
        input.releaseAll(c);
        released(c);
        connections.giveBack(c);
    }

    @Override
    protected int closeIdleConnections() {
        int closed = 0;
        for (UringConnection c : connections.all()) {
            if (!c.isOpen() || !idle.isIdle(c.lastActive)) continue;
            close(c);
            closed++;
        }
        return closed;
    }

    @Override
    protected void closeListener() {
        if (listenFd < 0) return;
        if (ring == null) {
            sys.close(listenFd);
        } else {
            if (accepting) { // the accept holds the socket open in the kernel
                sq.prepareCancelFd(listenFd, QUIET);
                sq.skipCompletionOnSuccess();
            }
            sq.prepareClose(listenFd, QUIET);
            sq.skipCompletionOnSuccess();
        }
        listenFd = -1;
    }

    private void armWake() {
        sq.prepareRead(wakeFd, wakeTarget.address(), 8, WAKE_DATA);
        wakeArmed = true;
    }

    /** The eventfd was written (stop()): the wait is over, and `running` says why. */
    private void woken(int res) {
        wakeArmed = false;
        if (res >= 0 && !quiescing) armWake();
    }

    /** Safe from any thread: a SINGLE_ISSUER ring takes no SQE from here, so the loop is woken by the eventfd read it keeps pending. */
    @Override
    protected synchronized void wakeUp() {
        if (wakeFd >= 0) sys.write(wakeFd, wakeValue.address(), 8);
    }

    @Override
    protected void closeEverything() {
        quiescing = true;
        if (connections != null) {
            for (UringConnection c : connections.all()) {
                if (c.isOpen()) close(c);
            }
        }
        closeListener();
        if (ring != null) {
            if (wakeArmed) {
                sq.prepareCancelFd(wakeFd, QUIET);
                sq.skipCompletionOnSuccess();
            }
            awaitQuiet();
            if (input != null) input.close();
            ring.close();
        }
        if (arena != null) arena.close();
        synchronized (this) {
            if (wakeFd >= 0) sys.close(wakeFd);
            wakeFd = -1;
        }
        wakeValue.close();
    }

    /**
     * Reaps until the kernel has completed every request, for at most a second: their buffers
     * are about to be freed, and the kernel must not write into memory that is reused.
     */
    private void awaitQuiet() {
        long deadline = System.nanoTime() + QUIESCE_NANOS;
        try {
            while ((connections != null && connections.inUse > 0 || accepting || wakeArmed) && System.nanoTime() - deadline < 0) {
                ring.submitAndWait(1, QUIESCE_SLICE_NANOS);
                cq.forEach(this);
            }
        } catch (ErrnoException e) {
            // Closing the ring cancels whatever is left.
        }
    }

    /** {@code uring bufring, echo}: the mode is what the numbers depend on. */
    @Override
    public String label() {
        return config.label("uring " + mode);
    }
}
