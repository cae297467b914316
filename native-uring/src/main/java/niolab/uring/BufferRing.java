package niolab.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static niolab.uring.IoUringConstants.IORING_REGISTER_PBUF_RING;
import static niolab.uring.IoUringConstants.IORING_UNREGISTER_PBUF_RING;
import static niolab.uring.IoUringStructs.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import niolab.epoll.ErrnoException;

/**
 * A provided-buffer ring (IORING_REGISTER_PBUF_RING, 5.19): {@code count} buffers of
 * {@code bufferSize} bytes that the kernel picks from when a recv with
 * {@code IOSQE_BUFFER_SELECT} finds data, so memory follows data, not connections. Giving a
 * buffer back is two stores and a release, no SQE and no syscall: that is what the ring buys
 * over {@link SubmissionQueue#prepareProvideBuffers}.
 *
 * <pre>
 *   BufferRing buffers = BufferRing.register(ring, 0, 256, 4096);  // group 0, all buffers given
 *   sq.prepareRecvMultishot(fd, 0, userData);
 *   // onCompletion(userData, res, flags): res bytes at buffers.address(CompletionQueue.bufferId(flags))
 *   buffers.recycle(id);                                            // once the bytes are used
 * </pre>
 *
 * <p>The ring is shared with the kernel like the SQ: this thread writes entries and then the
 * 16-bit tail with <em>release</em>, pairing with the kernel's
 * {@code smp_load_acquire(&br->tail)} when it selects a buffer ({@code io_uring/kbuf.c}): the
 * kernel never reads an entry before it is written. Not thread-safe: the ring's loop owns it.
 */
public final class BufferRing implements AutoCloseable {
    private static final VarHandle SHORT = JAVA_SHORT.varHandle();
    private static final long PAGE_SIZE = 4096;
    /** Buffer ids are 16 bits and the ring size a power of two: at most 2^15 entries. */
    public static final int MAX_BUFFERS = 1 << 15;

    private final IoUring ring;
    private final int group;
    private final int bufferSize;
    private final int mask;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment entries;
    private final MemorySegment buffers;
    private int tail;

    private BufferRing(IoUring ring, int group, int count, int bufferSize) {
        this.ring = ring;
        this.group = group;
        this.bufferSize = bufferSize;
        this.mask = count - 1;
        // The kernel pins the ring's pages and wants them page-aligned.
        this.entries = arena.allocate(count * BUF_SIZE, PAGE_SIZE);
        this.buffers = arena.allocate((long) count * bufferSize, PAGE_SIZE);
    }

    /**
     * Registers a ring of {@code count} buffers (a power of two, at most {@link #MAX_BUFFERS})
     * as buffer group {@code group} of {@code ring}, and gives the kernel all of them.
     * On the ring's own thread: a SINGLE_ISSUER ring refuses another (EEXIST).
     */
    public static BufferRing register(IoUring ring, int group, int count, int bufferSize) throws ErrnoException {
        if (count <= 0 || count > MAX_BUFFERS || Integer.bitCount(count) != 1) {
            throw new IllegalArgumentException("buffer count must be a power of two up to " + MAX_BUFFERS + ": " + count);
        }
        BufferRing buffers = new BufferRing(ring, group, count, bufferSize);
        int r = buffers.registration(IORING_REGISTER_PBUF_RING, count);
        if (r < 0) {
            buffers.arena.close();
            throw new ErrnoException("io_uring_register(PBUF_RING)", -r);
        }
        for (int id = 0; id < count; id++) buffers.add(id);
        buffers.publish();
        return buffers;
    }

    private int registration(int opcode, int count) {
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment reg = scratch.allocate(IO_URING_BUF_REG);
            reg.set(JAVA_LONG, BUF_REG_RING_ADDR, entries.address());
            reg.set(JAVA_INT, BUF_REG_RING_ENTRIES, count);
            reg.set(JAVA_SHORT, BUF_REG_BGID, (short) group);
            return ring.register(opcode, reg.address(), 1);
        }
    }

    /** The buffer group id SQEs name with IOSQE_BUFFER_SELECT. */
    public int group() {
        return group;
    }

    public int bufferSize() {
        return bufferSize;
    }

    /** The native address of buffer {@code id}. */
    public long address(int id) {
        return buffers.address() + (long) id * bufferSize;
    }

    /** All buffers as one segment (buffer {@code id} starts at {@code id * bufferSize}), for copies. */
    public MemorySegment buffers() {
        return buffers;
    }

    /** Gives buffer {@code id} back to the kernel at once. */
    public void recycle(int id) {
        add(id);
        publish();
    }

    /** Queues buffer {@code id} for the kernel; it sees it at the next {@link #publish()}. */
    public void add(int id) {
        long entry = (long) (tail & mask) * BUF_SIZE;
        // Never the entry's resv field: in slot 0 it is the ring's tail.
        entries.set(JAVA_LONG, entry + BUF_ADDR, address(id));
        entries.set(JAVA_INT, entry + BUF_LEN, bufferSize);
        entries.set(JAVA_SHORT, entry + BUF_BID, (short) id);
        tail++;
    }

    /** Makes every {@link #add}ed buffer visible to the kernel. */
    public void publish() {
        // Release: pairs with the kernel's smp_load_acquire(&br->tail); the entry stores come first.
        SHORT.setRelease(entries, BUF_RING_TAIL, (short) tail);
    }

    /**
     * Unregisters the group and frees the buffers; no recv may be using them. Closing the ring
     * first unregisters every group: then only the memory is freed here.
     */
    @Override
    public void close() {
        if (!arena.scope().isAlive()) return;
        if (ring.isOpen()) registration(IORING_UNREGISTER_PBUF_RING, 0);
        arena.close();
    }
}
