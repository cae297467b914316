package niolab.server.uring;

import niolab.epoll.ErrnoException;
import niolab.uring.BufferRing;
import niolab.uring.IoUring;

/**
 * {@code --uring-mode bufring}: the pool of {@link ProvidedBuffers} registered as a buffer ring
 * (Linux 5.19). The kernel takes buffers from a ring in shared memory, and a buffer goes back
 * with two stores and a release, where multishot spends an SQE on each: that is what the ring
 * buys, on every request.
 */
final class RingBuffers extends ProvidedBuffers {
    private final BufferRing ring;

    private RingBuffers(IoUring uring, BufferRing ring, int capacity, boolean byteLimit) {
        super(uring.sq(), ring.buffers(), capacity, byteLimit);
        this.ring = ring;
    }

    /** Registers the ring; on the loop thread (a SINGLE_ISSUER ring refuses any other). */
    static RingBuffers register(IoUring uring, int capacity, boolean byteLimit) throws ErrnoException {
        return new RingBuffers(uring, BufferRing.register(uring, GROUP, COUNT, sizeFor(capacity)), capacity, byteLimit);
    }

    @Override
    void giveBack(int id) {
        ring.recycle(id);
        givenBack++;
    }

    @Override
    public void close() {
        ring.close();
    }
}
