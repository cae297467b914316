package niolab.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static niolab.uring.IoUringConstants.IORING_CQE_BUFFER_SHIFT;
import static niolab.uring.IoUringConstants.IORING_CQE_F_BUFFER;
import static niolab.uring.IoUringConstants.IORING_CQE_F_MORE;
import static niolab.uring.IoUringConstants.IORING_CQE_F_SOCK_NONEMPTY;
import static niolab.uring.IoUringStructs.*;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The completion side of a ring: {@link #forEach} hands every ready CQE to a
 * {@link CompletionHandler} and then gives the slots back to the kernel, in one pass and with
 * no allocation.
 *
 * <p>Memory ordering, pairing with {@code io_uring/io_uring.c}:
 * <ul>
 *   <li>the tail is loaded with <em>acquire</em>, pairing with the kernel's
 *       {@code smp_store_release(&rings->cq.tail)} in {@code io_commit_cqring}, made after it
 *       wrote the CQEs: every CQE below the tail is complete when read;</li>
 *   <li>the head is stored with <em>release</em> after the CQEs are read, pairing with the
 *       kernel's read of {@code cq.head} before it fills a slot ({@code io_get_cqe}: the
 *       control dependency there orders its CQE writes after that read): the kernel never
 *       overwrites a CQE this thread has not finished reading.</li>
 * </ul>
 */
public final class CompletionQueue {
    private static final VarHandle INT = JAVA_INT.varHandle();

    private final MemorySegment cqRing;
    private final long headOffset;
    private final long tailOffset;
    private final long overflowOffset;
    private final long cqesOffset;
    private final int mask;

    /** The next CQE to read; only this thread writes the shared head, so this copy is exact. */
    private int head;
    private long completions;

    CompletionQueue(MemorySegment cqRing, MemorySegment offsets) {
        this.cqRing = cqRing;
        this.headOffset = offsets.get(JAVA_INT, CQ_OFF_HEAD);
        this.tailOffset = offsets.get(JAVA_INT, CQ_OFF_TAIL);
        this.overflowOffset = offsets.get(JAVA_INT, CQ_OFF_OVERFLOW);
        this.cqesOffset = offsets.get(JAVA_INT, CQ_OFF_CQES);
        this.mask = cqRing.get(JAVA_INT, offsets.get(JAVA_INT, CQ_OFF_RING_MASK));
        this.head = (int) INT.getAcquire(cqRing, headOffset);
    }

    /** CQEs ready to read now. */
    public int ready() {
        return tail() - head;
    }

    /**
     * Hands each ready CQE to {@code handler}, oldest first, and returns how many. A CQE counts
     * as read before its handler runs, so a handler that throws never sees it twice. CQEs
     * posted meanwhile wait for the next call.
     */
    public int forEach(CompletionHandler handler) {
        int first = head;
        int tail = tail();
        int h = first;
        try {
            while (h != tail) {
                long cqe = cqesOffset + (h & mask) * CQE_SIZE;
                long userData = cqRing.get(JAVA_LONG, cqe + CQE_USER_DATA);
                int res = cqRing.get(JAVA_INT, cqe + CQE_RES);
                int flags = cqRing.get(JAVA_INT, cqe + CQE_FLAGS);
                h++;
                handler.onCompletion(userData, res, flags);
            }
        } finally {
            head = h;
            completions += h - first;
            // Release: the CQE loads above happen before the kernel may reuse their slots.
            INT.setRelease(cqRing, headOffset, h);
        }
        return h - first;
    }

    /** Acquire: pairs with io_commit_cqring's smp_store_release of cq.tail, after the CQEs were written. */
    private int tail() {
        return (int) INT.getAcquire(cqRing, tailOffset);
    }

    /** CQEs read so far. */
    public long completions() {
        return completions;
    }

    /** CQEs the kernel dropped because the CQ was full and it could not hold them (never, with IORING_FEAT_NODROP and memory). */
    public int overflow() {
        return (int) INT.getOpaque(cqRing, overflowOffset);
    }

    /** The request that posted these flags stays armed and will post more (multishot accept, recv). */
    public static boolean hasMore(int flags) {
        return (flags & IORING_CQE_F_MORE) != 0;
    }

    /**
     * The socket still has more after this completion (IORING_CQE_F_SOCK_NONEMPTY): for a recv,
     * more bytes; for an accept (6.10), more connections in the backlog, so a completion
     * without it tells that the backlog has been drained.
     */
    public static boolean socketNonEmpty(int flags) {
        return (flags & IORING_CQE_F_SOCK_NONEMPTY) != 0;
    }

    /** The completion's data went into a provided buffer: its id is {@link #bufferId}. */
    public static boolean hasBuffer(int flags) {
        return (flags & IORING_CQE_F_BUFFER) != 0;
    }

    /** The id of the provided buffer the data went into (valid when {@link #hasBuffer}). */
    public static int bufferId(int flags) {
        return flags >>> IORING_CQE_BUFFER_SHIFT;
    }
}
