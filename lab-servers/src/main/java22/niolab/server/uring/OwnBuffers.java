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
 * N connections cost N buffers. Backpressure is exact: no recv while anything is unanswered,
 * and the recv is linked behind the send that answers the last byte ({@code IOSQE_IO_LINK}),
 * so it starts the moment that send is done, without a trip through the loop.
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
        armNow(c, userData);
        return true;
    }

    /**
     * Linked (IOSQE_IO_LINK) to the send just prepared, the recv starts once the send is done; a
     * short send counts as a failure and cancels it, so the loop re-arms after the rest is sent.
     */
    @Override
    boolean armAfterSend(UringConnection c, long userData) {
        sq.linkNext();
        armNow(c, userData);
        return true;
    }

    private void armNow(UringConnection c, long userData) {
        if (buffers[c.slot] == null) {
            // Once per slot, the first time it is used: slots are reused, so are their buffers.
            buffers[c.slot] = arena.allocate(capacity, 64);
            views[c.slot] = buffers[c.slot].asByteBuffer();
        }
        sq.prepareRecv(c.fd, buffers[c.slot].address(), capacity, userData);
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
