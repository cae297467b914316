package niolab.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static niolab.uring.IoUringConstants.IORING_ENTER_EXT_ARG;
import static niolab.uring.IoUringConstants.IORING_ENTER_GETEVENTS;
import static niolab.uring.IoUringConstants.IORING_ENTER_SQ_WAIT;
import static niolab.uring.IoUringConstants.IORING_ENTER_SQ_WAKEUP;
import static niolab.uring.IoUringConstants.IORING_FEAT_SINGLE_MMAP;
import static niolab.uring.IoUringConstants.IORING_OFF_CQ_RING;
import static niolab.uring.IoUringConstants.IORING_OFF_SQES;
import static niolab.uring.IoUringConstants.IORING_OFF_SQ_RING;
import static niolab.uring.IoUringConstants.IORING_SETUP_CQSIZE;
import static niolab.uring.IoUringConstants.IORING_SETUP_SQPOLL;
import static niolab.uring.IoUringConstants.IORING_SQ_NEED_WAKEUP;
import static niolab.uring.IoUringStructs.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import niolab.epoll.Errno;
import niolab.epoll.ErrnoException;

/**
 * One io_uring instance: the ring fd, its three shared mappings, and the io_uring_enter call.
 * Not thread-safe: one event loop thread opens it, prepares, submits, reaps and closes it
 * (with {@code IORING_SETUP_SINGLE_ISSUER} the kernel even refuses another thread).
 *
 * <pre>
 *   try (IoUring ring = IoUring.open(256, 0, UringSupport.capabilities().setupFlags())) {
 *       SubmissionQueue sq = ring.sq();
 *       CompletionQueue cq = ring.cq();
 *       sq.prepareAccept(listenFd, UserData.of(ACCEPT, 0, listenFd));
 *       while (running) {
 *           ring.submitAndWait(1, timeoutNanos);   // one io_uring_enter: submit and wait
 *           cq.forEach(this);                      // onCompletion(userData, res, flags)
 *       }
 *   }
 * </pre>
 *
 * <p>Hot state (the counters, the wait argument) is touched once per loop iteration and never
 * allocates; setup and teardown are cold and throw {@link ErrnoException} naming the call.
 *
 * <p>With {@code IORING_SETUP_SQPOLL} a kernel thread takes the SQEs as soon as the tail is
 * published: submitting costs no syscall while that thread polls, and io_uring_enter is made only
 * to wait for completions, to wake the thread once it has slept ({@code sq_thread_idle} ms
 * without work), or to wait for room in a full SQ.
 */
public final class IoUring implements AutoCloseable {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** sizeof(sigset_t) as the kernel counts it (_NSIG / 8); unused while sigmask is NULL. */
    private static final int KERNEL_SIGSET_SIZE = 8;

    private final Arena arena = Arena.ofShared();
    private final UringSyscalls calls = new UringSyscalls();
    private final int ringFd;
    private final int setupFlags;
    private final int features;
    private final boolean sqPoll;
    private final SubmissionQueue sq;
    private final CompletionQueue cq;
    /** io_uring_getevents_arg, pointing at {@link #waitTimeout}: a timed wait without a timeout SQE. */
    private final MemorySegment waitArg;
    private final MemorySegment waitTimeout;

    private long enterCalls;
    private long submittedSqes;
    /** SQPOLL: the tail as last published, so that {@link #submittedSqes} counts each SQE once. */
    private int publishedTail;

    private IoUring(int entries, int cqEntries, int flags, int sqThreadIdleMs) throws ErrnoException {
        MemorySegment params = arena.allocate(IO_URING_PARAMS);
        if (cqEntries > 0) {
            flags |= IORING_SETUP_CQSIZE;
            params.set(JAVA_INT, PARAMS_CQ_ENTRIES, cqEntries);
        }
        if ((flags & IORING_SETUP_SQPOLL) != 0) params.set(JAVA_INT, PARAMS_SQ_THREAD_IDLE, sqThreadIdleMs);
        params.set(JAVA_INT, PARAMS_FLAGS, flags);
        int fd = calls.setup(entries, params);
        if (fd < 0) {
            arena.close();
            throw new ErrnoException("io_uring_setup", -fd);
        }
        this.ringFd = fd;
        this.setupFlags = params.get(JAVA_INT, PARAMS_FLAGS);
        this.features = params.get(JAVA_INT, PARAMS_FEATURES);
        this.sqPoll = (setupFlags & IORING_SETUP_SQPOLL) != 0;
        try {
            MemorySegment sqOff = params.asSlice(PARAMS_SQ_OFF, IO_SQRING_OFFSETS);
            MemorySegment cqOff = params.asSlice(PARAMS_CQ_OFF, IO_CQRING_OFFSETS);
            int sqEntries = params.get(JAVA_INT, PARAMS_SQ_ENTRIES);
            int cqCount = params.get(JAVA_INT, PARAMS_CQ_ENTRIES);
            long sqRingSize = sqOff.get(JAVA_INT, SQ_OFF_ARRAY) + sqEntries * 4L;
            long cqRingSize = cqOff.get(JAVA_INT, CQ_OFF_CQES) + cqCount * CQE_SIZE;
            MemorySegment sqRing;
            MemorySegment cqRing;
            if ((features & IORING_FEAT_SINGLE_MMAP) != 0) {
                // Since 5.4 both rings live in one mapping: map it once, at the larger size.
                sqRing = map(Math.max(sqRingSize, cqRingSize), IORING_OFF_SQ_RING);
                cqRing = sqRing;
            } else {
                sqRing = map(sqRingSize, IORING_OFF_SQ_RING);
                cqRing = map(cqRingSize, IORING_OFF_CQ_RING);
            }
            MemorySegment sqes = map(sqEntries * SQE_SIZE, IORING_OFF_SQES);
            this.sq = new SubmissionQueue(this, sqRing, sqOff, sqes, arena.allocate(KERNEL_TIMESPEC, sqEntries));
            this.publishedTail = sq.tail();
            this.cq = new CompletionQueue(cqRing, cqOff);
            this.waitTimeout = arena.allocate(KERNEL_TIMESPEC);
            this.waitArg = arena.allocate(IO_URING_GETEVENTS_ARG);
            waitArg.set(JAVA_INT, GETEVENTS_ARG_SIGMASK_SZ, KERNEL_SIGSET_SIZE);
            waitArg.set(JAVA_LONG, GETEVENTS_ARG_TS, waitTimeout.address());
        } catch (ErrnoException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * A ring of {@code entries} SQEs (a power of two; the kernel rounds up) and {@code cqEntries}
     * CQEs (0: the kernel's default, twice the SQ), set up with {@code setupFlags}
     * (IORING_SETUP_*; see {@link UringSupport#capabilities()} for the best this kernel accepts).
     */
    public static IoUring open(int entries, int cqEntries, int setupFlags) throws ErrnoException {
        return new IoUring(entries, cqEntries, setupFlags, 0);
    }

    /**
     * {@link #open(int, int, int)} with {@code IORING_SETUP_SQPOLL} added: a kernel thread polls
     * the SQ, and sleeps after {@code sqThreadIdleMs} without SQEs. The kernel refuses SQPOLL
     * together with the task-run flags (COOP_TASKRUN, TASKRUN_FLAG, DEFER_TASKRUN): they are
     * about the submitting task, which is now the kernel thread.
     */
    public static IoUring openSqPoll(int entries, int cqEntries, int setupFlags, int sqThreadIdleMs) throws ErrnoException {
        return new IoUring(entries, cqEntries, setupFlags | IORING_SETUP_SQPOLL, sqThreadIdleMs);
    }

    private MemorySegment map(long size, long offset) throws ErrnoException {
        long address = calls.mmap(size, ringFd, offset);
        if (address < 0) throw new ErrnoException("mmap(io_uring)", (int) -address);
        // Closing the arena unmaps: the mapping lives exactly as long as this ring.
        return MemorySegment.ofAddress(address).reinterpret(size, arena, m -> calls.munmap(m.address(), m.byteSize()));
    }

    public SubmissionQueue sq() {
        return sq;
    }

    public CompletionQueue cq() {
        return cq;
    }

    /**
     * Submits what was prepared, without waiting: one io_uring_enter, or none when nothing is
     * pending (nor, with SQPOLL, while the kernel thread polls). Returns how many SQEs the kernel
     * took (with SQPOLL: how many wait for its thread).
     */
    public int submit() throws ErrnoException {
        int toSubmit = sq.flush();
        if (toSubmit == 0) return 0;
        if (!sqPoll) return enter(toSubmit, 0, 0);
        int wake = sqThreadFlags(toSubmit);
        if (wake != 0) enter(toSubmit, 0, wake);
        return toSubmit;
    }

    /** {@link #submitAndWait(int, long)} with no time limit. */
    public int submitAndWait(int minComplete) throws ErrnoException {
        return submitAndWait(minComplete, -1);
    }

    /**
     * Submits what was prepared and waits until {@code minComplete} completions are ready or
     * {@code timeoutNanos} has passed (negative: no limit), in one io_uring_enter; returns the
     * number of completions ready to read. Makes no syscall at all when nothing is pending and
     * completions already wait in the CQ. A signal or the timeout simply returns early.
     */
    public int submitAndWait(int minComplete, long timeoutNanos) throws ErrnoException {
        int toSubmit = sq.flush();
        int ready = cq.ready();
        int flags = IORING_ENTER_GETEVENTS;
        if (sqPoll) {
            // the kernel thread takes the SQEs by itself unless it sleeps: no syscall for them
            int wake = sqThreadFlags(toSubmit);
            if (ready > 0 && ready >= minComplete) {
                if (wake != 0) enter(toSubmit, 0, wake);
                return ready;
            }
            flags |= wake;
        } else if (toSubmit == 0 && ready > 0 && ready >= minComplete) {
            return ready;
        }
        long arg = 0;
        long argSize = 0;
        if (timeoutNanos >= 0) {
            waitTimeout.set(JAVA_LONG, TIMESPEC_SEC, timeoutNanos / NANOS_PER_SECOND);
            waitTimeout.set(JAVA_LONG, TIMESPEC_NSEC, timeoutNanos % NANOS_PER_SECOND);
            flags |= IORING_ENTER_EXT_ARG;
            arg = waitArg.address();
            argSize = IO_URING_GETEVENTS_ARG.byteSize();
        }
        enter(toSubmit, minComplete, flags, arg, argSize);
        return cq.ready();
    }

    private int enter(int toSubmit, int minComplete, int flags) throws ErrnoException {
        return enter(toSubmit, minComplete, flags, 0, 0);
    }

    /**
     * The hot call captures no errno (capturing allocates until the JIT has compiled the call
     * site). A failure is rare (a timed wait that ran out, a signal, a full CQ) and nothing was
     * submitted then: the call is made again, capturing errno, and without waiting, to tell why.
     */
    private int enter(int toSubmit, int minComplete, int flags, long arg, long argSize) throws ErrnoException {
        enterCalls++;
        int r = calls.enterNoErrno(ringFd, toSubmit, minComplete, flags, arg, argSize);
        if (r < 0) {
            enterCalls++;
            if ((flags & IORING_ENTER_GETEVENTS) != 0) {
                waitTimeout.set(JAVA_LONG, TIMESPEC_SEC, 0L);
                waitTimeout.set(JAVA_LONG, TIMESPEC_NSEC, 0L);
                flags |= IORING_ENTER_EXT_ARG;
                arg = waitArg.address();
                argSize = IO_URING_GETEVENTS_ARG.byteSize();
            }
            r = calls.enter(ringFd, toSubmit, minComplete, flags, arg, argSize);
        }
        if (r >= 0) {
            if (!sqPoll) submittedSqes += r; // with SQPOLL, r only echoes to_submit
            return r;
        }
        return enterFailed(-r);
    }

    /**
     * SQPOLL: the io_uring_enter flags that {@code pending} published SQEs need: SQ_WAKEUP if
     * the kernel thread sleeps, SQ_WAIT if the SQ is full; 0 while the thread polls. Counts the
     * newly published SQEs as submitted.
     */
    private int sqThreadFlags(int pending) {
        int tail = sq.tail();
        submittedSqes += tail - publishedTail;
        publishedTail = tail;
        if (pending == 0) return 0;
        // Full fence: the tail's store must be visible before the flags are read, or the thread
        // may go to sleep between the two unseen (liburing's io_uring_smp_mb in sq_ring_needs_enter).
        VarHandle.fullFence();
        int flags = (sq.kernelFlags() & IORING_SQ_NEED_WAKEUP) != 0 ? IORING_ENTER_SQ_WAKEUP : 0;
        return pending >= sq.capacity() ? flags | IORING_ENTER_SQ_WAIT : flags;
    }

    /**
     * The wait ended early (timeout, signal) or the kernel is short of room (EBUSY/EAGAIN: the CQ
     * overflowed; reaping makes room): all normal, nothing was submitted. Anything else is a bug.
     */
    private static int enterFailed(int errno) throws ErrnoException {
        if (errno == Errno.ETIME || errno == Errno.EINTR || errno == Errno.EBUSY || errno == Errno.EAGAIN) return 0;
        throw new ErrnoException("io_uring_enter", errno);
    }

    /** io_uring_register: the opcode's result (≥ 0), or -errno. Cold path (probe, buffer rings). */
    int register(int opcode, long arg, int nrArgs) {
        return calls.register(ringFd, opcode, arg, nrArgs);
    }

    public int fd() {
        return ringFd;
    }

    /** The IORING_SETUP_* flags this ring runs with. */
    public int setupFlags() {
        return setupFlags;
    }

    /** The IORING_FEAT_* bits the kernel reported at setup. */
    public int features() {
        return features;
    }

    /** io_uring_enter calls made so far: the syscalls the server pays for its I/O. */
    public long enterCalls() {
        return enterCalls;
    }

    /** SQEs the kernel has taken so far. */
    public long submittedSqes() {
        return submittedSqes;
    }

    /** CQEs read so far. */
    public long completions() {
        return cq.completions();
    }

    boolean isOpen() {
        return arena.scope().isAlive();
    }

    /** Unmaps the rings and closes the ring fd; the kernel cancels what is still in flight. */
    @Override
    public void close() {
        if (!isOpen()) return;
        arena.close();
        calls.close(ringFd);
    }
}
