package niolab.uring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static niolab.uring.IoUringConstants.*;
import static niolab.uring.IoUringStructs.*;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import niolab.epoll.ErrnoException;
import niolab.epoll.LibC;

/**
 * The submission side of a ring: {@code prepareX} methods each fill the next SQE for one
 * operation; nothing reaches the kernel until {@link IoUring#submit} or
 * {@link IoUring#submitAndWait} publishes the tail and calls io_uring_enter.
 *
 * <p>Every {@code prepareX} writes all 64 bytes of its SQE (a slot is reused, never cleared
 * elsewhere) and allocates nothing. When all slots hold unsubmitted SQEs, preparing one more
 * first submits them ({@link #nextSqeSlowPath}): one extra io_uring_enter, counted like the others.
 *
 * <p>Memory ordering. The kernel reads the SQ ring concurrently with this thread, so the two
 * shared indexes use acquire/release ({@code io_uring/io_uring.c} documents the pairing):
 * <ul>
 *   <li>the tail is stored with <em>release</em> after the SQEs are written, pairing with the
 *       kernel's {@code smp_load_acquire(&rings->sq.tail)} in {@code io_sqring_entries}: the
 *       kernel never sees a tail that covers a half-written SQE;</li>
 *   <li>the head is loaded with <em>acquire</em>, pairing with the kernel's
 *       {@code smp_store_release(&rings->sq.head)} in {@code io_commit_sqring}, made after it
 *       has copied the SQEs: a slot below the head may be overwritten at once.</li>
 * </ul>
 * SQE fields themselves are plain stores: the release store of the tail orders them.
 */
public final class SubmissionQueue {
    private static final VarHandle INT = JAVA_INT.varHandle();
    // LibC's constants are compile-time constants: javac copies them, JNA is never loaded for them.
    /** A send to a peer that has gone completes with -EPIPE instead of raising SIGPIPE. */
    private static final int SEND_FLAGS = LibC.MSG_NOSIGNAL;
    /** The accepted fd is not inherited by a child process (mp workers, tests' processes). */
    private static final int ACCEPT_FLAGS = LibC.SOCK_CLOEXEC;

    private final IoUring ring;
    private final MemorySegment sqRing;
    private final MemorySegment sqes;
    /** One __kernel_timespec per SQE slot: a timeout SQE points at its slot's, valid until submitted. */
    private final MemorySegment timespecs;
    private final long headOffset;
    private final long tailOffset;
    private final long flagsOffset;
    private final int mask;
    private final int entries;

    /** SQEs prepared so far (the next slot), published to the kernel by {@link #flush}. */
    private int tail;
    /** The kernel's head as last read: re-read only when the ring looks full. */
    private int cachedHead;
    private long lastSqe;

    SubmissionQueue(IoUring ring, MemorySegment sqRing, MemorySegment offsets, MemorySegment sqes, MemorySegment timespecs) {
        this.ring = ring;
        this.sqRing = sqRing;
        this.sqes = sqes;
        this.timespecs = timespecs;
        this.headOffset = offsets.get(JAVA_INT, SQ_OFF_HEAD);
        this.tailOffset = offsets.get(JAVA_INT, SQ_OFF_TAIL);
        this.flagsOffset = offsets.get(JAVA_INT, SQ_OFF_FLAGS);
        this.mask = sqRing.get(JAVA_INT, offsets.get(JAVA_INT, SQ_OFF_RING_MASK));
        this.entries = sqRing.get(JAVA_INT, offsets.get(JAVA_INT, SQ_OFF_RING_ENTRIES));
        // The index array maps ring slot i to SQE i, once: after that only SQEs and the tail change.
        long array = offsets.get(JAVA_INT, SQ_OFF_ARRAY);
        for (int i = 0; i < entries; i++) sqRing.set(JAVA_INT, array + 4L * i, i);
        // The kernel starts both indexes at 0; read them anyway rather than assume.
        this.tail = (int) INT.getAcquire(sqRing, tailOffset);
        this.cachedHead = (int) INT.getAcquire(sqRing, headOffset);
    }

    public void prepareNop(long userData) {
        prepare(IORING_OP_NOP, -1, 0, 0, 0, userData);
    }

    /** One accept on {@code listenFd}: its completion's res is the new fd, or -errno (-EMFILE...). */
    public void prepareAccept(int listenFd, long userData) {
        long sqe = prepare(IORING_OP_ACCEPT, listenFd, 0, 0, 0, userData);
        sqes.set(JAVA_INT, sqe + SQE_OP_FLAGS, ACCEPT_FLAGS);
    }

    /**
     * Accepts until cancelled or failed (5.19): a completion per connection, flagged
     * {@link IoUringConstants#IORING_CQE_F_MORE} while the accept stays armed. One without it
     * (an error such as -EMFILE, or -ECANCELED) means the accept ended: prepare a new one.
     */
    public void prepareAcceptMultishot(int listenFd, long userData) {
        long sqe = prepare(IORING_OP_ACCEPT, listenFd, 0, 0, 0, userData);
        sqes.set(JAVA_SHORT, sqe + SQE_IOPRIO, (short) IORING_ACCEPT_MULTISHOT);
        sqes.set(JAVA_INT, sqe + SQE_OP_FLAGS, ACCEPT_FLAGS);
    }

    /** One recv into {@code length} bytes at {@code address}: res is the byte count, 0 at EOF, or -errno. */
    public void prepareRecv(int fd, long address, int length, long userData) {
        prepare(IORING_OP_RECV, fd, address, length, 0, userData);
    }

    /**
     * One recv into a buffer the kernel picks from {@code bufferGroup} when data arrives
     * (a {@link BufferRing} or buffers given with {@link #prepareProvideBuffers}): no memory is
     * tied to an idle connection. The buffer's id is {@link CompletionQueue#bufferId(int)}.
     */
    public void prepareRecvSelect(int fd, int bufferGroup, long userData) {
        long sqe = prepare(IORING_OP_RECV, fd, 0, 0, 0, userData);
        selectBuffer(sqe, bufferGroup);
    }

    /**
     * Receives until EOF, error or cancel (6.0), each completion in a buffer from
     * {@code bufferGroup} (multishot recv requires provided buffers) and flagged
     * {@link IoUringConstants#IORING_CQE_F_MORE} while it stays armed. When the group runs out
     * the recv ends with -ENOBUFS: give buffers back and prepare it again.
     */
    public void prepareRecvMultishot(int fd, int bufferGroup, long userData) {
        long sqe = prepare(IORING_OP_RECV, fd, 0, 0, 0, userData);
        sqes.set(JAVA_SHORT, sqe + SQE_IOPRIO, (short) IORING_RECV_MULTISHOT);
        selectBuffer(sqe, bufferGroup);
    }

    /**
     * {@link #prepareRecvMultishot(int, int, long)} that ends by itself once it has received
     * {@code byteLimit} bytes (6.17; sqe->optlen): the CQE that reaches the limit comes without
     * {@link IoUringConstants#IORING_CQE_F_MORE}. The limit is checked after each recv, and a
     * recv fills up to a whole buffer, so the total may pass it by less than one buffer.
     * This is how a loop bounds what a connection can have received and not yet answered
     * without cancelling, which comes too late: the kernel may post many CQEs before a
     * cancel is submitted. An older kernel fails the SQE with -EINVAL.
     */
    public void prepareRecvMultishot(int fd, int bufferGroup, int byteLimit, long userData) {
        prepareRecvMultishot(fd, bufferGroup, userData);
        sqes.set(JAVA_INT, lastSqe + SQE_OPTLEN, byteLimit);
    }

    private void selectBuffer(long sqe, int bufferGroup) {
        sqes.set(JAVA_BYTE, sqe + SQE_FLAGS, (byte) IOSQE_BUFFER_SELECT);
        sqes.set(JAVA_SHORT, sqe + SQE_BUF_INDEX, (short) bufferGroup);
    }

    /** One send of {@code length} bytes: res is the count sent (possibly short), or -errno (-EPIPE...). */
    public void prepareSend(int fd, long address, int length, long userData) {
        long sqe = prepare(IORING_OP_SEND, fd, address, length, 0, userData);
        sqes.set(JAVA_INT, sqe + SQE_OP_FLAGS, SEND_FLAGS);
    }

    /**
     * One read(2)-like read of {@code length} bytes: for a non-socket fd, such as the eventfd
     * another thread writes to wake the loop (a SINGLE_ISSUER ring takes SQEs from its own
     * thread only, so a stop request must arrive as a completion).
     */
    public void prepareRead(int fd, long address, int length, long userData) {
        // off = -1: the file's current position, which an eventfd ignores.
        prepare(IORING_OP_READ, fd, address, length, -1, userData);
    }

    public void prepareClose(int fd, long userData) {
        prepare(IORING_OP_CLOSE, fd, 0, 0, 0, userData);
    }

    /**
     * A timer: completes with res -ETIME after {@code nanos} (relative), or -ECANCELED if
     * cancelled first. For timed retries (after -EMFILE) and idle sweeps.
     */
    public void prepareTimeout(long nanos, long userData) {
        // len = 1 timespec; off = 0 completions to wait for: a pure timer.
        long sqe = prepare(IORING_OP_TIMEOUT, -1, 0, 1, 0, userData);
        long ts = sqe / SQE_SIZE * KERNEL_TIMESPEC.byteSize();
        timespecs.set(JAVA_LONG, ts + TIMESPEC_SEC, nanos / 1_000_000_000L);
        timespecs.set(JAVA_LONG, ts + TIMESPEC_NSEC, nanos % 1_000_000_000L);
        sqes.set(JAVA_LONG, sqe + SQE_ADDR, timespecs.address() + ts);
    }

    /** Cancels the request submitted with {@code targetUserData}: its CQE ends with -ECANCELED. */
    public void prepareCancel(long targetUserData, long userData) {
        prepare(IORING_OP_ASYNC_CANCEL, -1, targetUserData, 0, 0, userData);
    }

    /** Cancels every request on {@code fd} (5.19): res is how many, or -ENOENT if none. */
    public void prepareCancelFd(int fd, long userData) {
        long sqe = prepare(IORING_OP_ASYNC_CANCEL, fd, 0, 0, 0, userData);
        sqes.set(JAVA_INT, sqe + SQE_OP_FLAGS, IORING_ASYNC_CANCEL_FD | IORING_ASYNC_CANCEL_ALL);
    }

    /**
     * Gives {@code count} buffers of {@code bufferLength} bytes, laid end to end from
     * {@code address}, to {@code bufferGroup} with ids from {@code firstId} (5.7): the way to
     * provide buffers before buffer rings, one SQE per give-back.
     */
    public void prepareProvideBuffers(long address, int bufferLength, int count, int bufferGroup, int firstId, long userData) {
        long sqe = prepare(IORING_OP_PROVIDE_BUFFERS, count, address, bufferLength, firstId, userData);
        sqes.set(JAVA_SHORT, sqe + SQE_BUF_INDEX, (short) bufferGroup);
    }

    /** The SQE prepared last posts no CQE if it succeeds (IOSQE_CQE_SKIP_SUCCESS, 5.17): failures still report. */
    public void skipCompletionOnSuccess() {
        addFlags(IOSQE_CQE_SKIP_SUCCESS);
    }

    /**
     * Chains the SQE prepared last to the next one (IOSQE_IO_LINK): the next starts only after
     * this one succeeded, else it completes with -ECANCELED. A short send or recv is a success
     * unless it was asked for with MSG_WAITALL ({@link #prepareSend} is not): a recv linked
     * behind a send may start after a short one, into memory the rest still has to leave from.
     */
    public void linkNext() {
        addFlags(IOSQE_IO_LINK);
    }

    private void addFlags(int flags) {
        sqes.set(JAVA_BYTE, lastSqe + SQE_FLAGS, (byte) (sqes.get(JAVA_BYTE, lastSqe + SQE_FLAGS) | flags));
    }

    /** The SQ ring's flags (IORING_SQ_CQ_OVERFLOW, IORING_SQ_TASKRUN, IORING_SQ_NEED_WAKEUP): set by the kernel at any time. */
    public int kernelFlags() {
        return (int) INT.getOpaque(sqRing, flagsOffset);
    }

    /** Fills every field of the next SQE with the common shape and returns its byte offset. */
    private long prepare(int opcode, int fd, long address, int length, long offset, long userData) {
        long sqe = nextSqe();
        sqes.set(JAVA_BYTE, sqe + SQE_OPCODE, (byte) opcode);
        sqes.set(JAVA_BYTE, sqe + SQE_FLAGS, (byte) 0);
        sqes.set(JAVA_SHORT, sqe + SQE_IOPRIO, (short) 0);
        sqes.set(JAVA_INT, sqe + SQE_FD, fd);
        sqes.set(JAVA_LONG, sqe + SQE_OFF, offset);
        sqes.set(JAVA_LONG, sqe + SQE_ADDR, address);
        sqes.set(JAVA_INT, sqe + SQE_LEN, length);
        sqes.set(JAVA_INT, sqe + SQE_OP_FLAGS, 0);
        sqes.set(JAVA_LONG, sqe + SQE_USER_DATA, userData);
        sqes.set(JAVA_SHORT, sqe + SQE_BUF_INDEX, (short) 0);
        sqes.set(JAVA_SHORT, sqe + SQE_PERSONALITY, (short) 0);
        sqes.set(JAVA_INT, sqe + SQE_SPLICE_FD_IN, 0);
        sqes.set(JAVA_LONG, sqe + SQE_ADDR3, 0L);
        sqes.set(JAVA_LONG, sqe + SQE_PAD2, 0L);
        lastSqe = sqe;
        return sqe;
    }

    private long nextSqe() {
        if (tail - cachedHead == entries) return nextSqeSlowPath();
        return (long) (tail++ & mask) * SQE_SIZE;
    }

    /** The ring looks full: re-read the head, and if it really is, submit to make room. */
    private long nextSqeSlowPath() {
        cachedHead = head();
        if (tail - cachedHead == entries) {
            try {
                ring.submit();
            } catch (ErrnoException e) {
                throw new IllegalStateException("the SQ is full and submitting failed: " + e.getMessage(), e);
            }
            cachedHead = head();
            if (tail - cachedHead == entries) throw new IllegalStateException("the kernel took no SQE from a full SQ");
        }
        return (long) (tail++ & mask) * SQE_SIZE;
    }

    /** SQEs prepared so far, as a free-running index. */
    int tail() {
        return tail;
    }

    /** The SQ's slots. */
    int capacity() {
        return entries;
    }

    /** Acquire: pairs with io_commit_sqring's smp_store_release of sq.head, after the kernel copied the SQEs. */
    private int head() {
        return (int) INT.getAcquire(sqRing, headOffset);
    }

    /**
     * Publishes the prepared SQEs and returns how many the kernel has not taken yet (the
     * to_submit of the next io_uring_enter).
     */
    int flush() {
        // Release: pairs with io_sqring_entries' smp_load_acquire of sq.tail; SQE stores come first.
        INT.setRelease(sqRing, tailOffset, tail);
        return tail - head();
    }
}
