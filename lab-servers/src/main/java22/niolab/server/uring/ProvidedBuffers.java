package niolab.server.uring;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import niolab.uring.CompletionQueue;
import niolab.uring.SubmissionQueue;

/**
 * {@code --uring-mode multishot}: one pool of buffers for all connections, given to the kernel
 * (buffer group {@link #GROUP}); a recv names the group, and the kernel picks a buffer only when
 * data arrives, so an idle connection holds no memory. Each connection's recv is multishot: it
 * stays armed across requests, so a request costs one SQE (the send) besides the give-back.
 * Here a buffer goes back with an SQE (IORING_OP_PROVIDE_BUFFERS); {@link RingBuffers} with
 * two stores.
 *
 * <p>Backpressure. A multishot recv keeps receiving until it ends, and a cancel would come too
 * late (the kernel may post many completions before it is submitted). So each recv is armed
 * with a byte limit (Linux 6.17): the room the connection has left under {@code --buffer-size},
 * less one buffer, since a recv may fill a whole buffer past the limit. A connection then never
 * holds more than {@code --buffer-size} received and unanswered bytes, and it is re-armed once
 * its answers have made room. On an older kernel the recv is cancelled once the connection
 * holds that much, and it may hold a few buffers more: what arrived before the cancel.
 */
class ProvidedBuffers extends RecvBuffers {
    static final int GROUP = 0;
    /** Buffers in the pool: enough for a request in flight on each of a thousand connections, and some. */
    static final int COUNT = 2048;
    private static final int MAX_SIZE = 16 * 1024;

    private final boolean byteLimit;
    private final long base;
    private final MemorySegment memory;
    /** The whole pool as one ByteBuffer, framed per use: one view, made once. */
    private final ByteBuffer all;

    /** A pool of {@link #COUNT} buffers in {@code arena}, given to the kernel with one SQE. */
    ProvidedBuffers(SubmissionQueue sq, Arena arena, int capacity, boolean byteLimit) {
        this(sq, arena.allocate((long) COUNT * sizeFor(capacity), 4096), capacity, byteLimit);
        sq.prepareProvideBuffers(base, size, COUNT, GROUP, 0, UringServer.QUIET);
        sq.skipCompletionOnSuccess();
    }

    /** A pool in {@code memory} that the subclass gives to the kernel its own way. */
    protected ProvidedBuffers(SubmissionQueue sq, MemorySegment memory, int capacity, boolean byteLimit) {
        super(sq, capacity, sizeFor(capacity), COUNT);
        this.byteLimit = byteLimit;
        this.memory = memory;
        this.base = memory.address();
        this.all = memory.asByteBuffer();
    }

    /** A quarter of {@code --buffer-size} (at most 16 KiB), so that a connection's limit is several buffers. */
    static int sizeFor(int capacity) {
        return Math.max(1, Math.min(capacity / 4, MAX_SIZE));
    }

    @Override
    boolean arm(UringConnection c, long userData) {
        int room = capacity - c.heldBytes - size + 1;
        if (room <= 0) return false;
        if (byteLimit) sq.prepareRecvMultishot(c.fd, GROUP, room, userData);
        else sq.prepareRecvMultishot(c.fd, GROUP, userData);
        return true;
    }

    @Override
    boolean mustCancel(UringConnection c) {
        return !byteLimit && capacity - c.heldBytes - size + 1 <= 0;
    }

    @Override
    int filled(UringConnection c, int cqeFlags) {
        return CompletionQueue.bufferId(cqeFlags);
    }

    /**
     * Small recvs arriving behind a slow send would each pin a whole buffer of the shared pool:
     * their bytes are copied into the room left in the connection's last buffer instead, and
     * their own buffer goes straight back.
     */
    @Override
    void hold(UringConnection c, int id, int n) {
        if (c.heldTail >= 0 && end(c.heldTail) + n <= size) {
            MemorySegment.copy(memory, (long) id * size, memory, (long) c.heldTail * size + end(c.heldTail), n);
            grewTail(c, n);
            giveBack(id);
            return;
        }
        super.hold(c, id, n);
    }

    @Override
    final long address(int id) {
        return base + (long) id * size;
    }

    @Override
    final ByteBuffer view(int id) {
        int at = id * size;
        all.limit(all.capacity()).position(at + start(id)).limit(at + end(id));
        return all;
    }

    @Override
    void giveBack(int id) {
        sq.prepareProvideBuffers(address(id), size, 1, GROUP, id, UringServer.QUIET);
        sq.skipCompletionOnSuccess();
        givenBack++;
    }

    @Override
    public void close() {
        // The memory belongs to the loop's arena; the kernel forgets the group with the ring.
    }
}
