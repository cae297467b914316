package niolab.server.uring;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import niolab.uring.SubmissionQueue;

/**
 * {@code --uring-mode basic}: each connection receives into a buffer of its own (the id of a
 * buffer is the slot of its connection), one recv at a time. The buffer is the kernel's from
 * the recv's submission to its completion, so it stays tied up while the connection is idle:
 * N connections cost N buffers. Backpressure is exact: no recv while anything is unanswered.
 *
 * <p>The recv is armed when the send's completion has been seen, not linked behind the send
 * ({@code IOSQE_IO_LINK}): a short send does not break a link (only one with MSG_WAITALL
 * would), so a linked recv could overwrite the bytes still to be sent. It costs no extra
 * io_uring_enter: the send completes inline, so the enter that submits it returns at once
 * either way, and the next one submits the recv and waits.
 */
final class OwnBuffers extends RecvBuffers {
    private final Arena arena;
    private MemorySegment[] buffers = new MemorySegment[0];
    private ByteBuffer[] views = new ByteBuffer[0];

    OwnBuffers(SubmissionQueue sq, Arena arena, int capacity) {
        super(sq, capacity, capacity, 0);
        this.arena = arena;
    }

    @Override
    boolean arm(UringConnection c, long userData) {
        if (c.heldHead >= 0 || c.sending) return false;
        if (buffers[c.slot] == null) {
            // Once per slot, the first time it is used: slots are reused, so are their buffers.
            buffers[c.slot] = arena.allocate(capacity, 64);
            views[c.slot] = buffers[c.slot].asByteBuffer();
        }
        sq.prepareRecv(c.fd, buffers[c.slot].address(), capacity, userData);
        return true;
    }

    @Override
    int filled(UringConnection c, int cqeFlags) {
        return c.slot;
    }

    @Override
    long address(int id) {
        return buffers[id].address();
    }

    @Override
    ByteBuffer view(int id) {
        ByteBuffer b = views[id];
        b.limit(end(id)).position(start(id));
        return b;
    }

    @Override
    void giveBack(int id) {
        // Nothing to give: the buffer stays with its connection.
    }

    @Override
    void slotsGrew(int slots) {
        super.slotsGrew(slots);
        buffers = Arrays.copyOf(buffers, slots);
        views = Arrays.copyOf(views, slots);
    }

    @Override
    public void close() {
        // The memory belongs to the loop's arena.
    }
}
