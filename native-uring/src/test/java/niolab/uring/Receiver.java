package niolab.uring;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import niolab.epoll.ErrnoException;

/**
 * Where a {@link RecvMode}'s recv puts its bytes and how it is re-armed, for one connection:
 * {@link #arm}, then per recv completion {@link #address} and, once the bytes are used,
 * {@link #done}. Allocates nothing after construction.
 */
final class Receiver implements AutoCloseable {
    static final int GROUP = 7;
    /** user_data of the buffer give-backs; they post a completion only on failure. */
    static final long PROVIDE_USER_DATA = UserData.of(0xEE, 0, -1);

    private final RecvMode mode;
    private final SubmissionQueue sq;
    private final int bufferSize;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment slab;
    private final BufferRing bufferRing;
    private final long recvUserData;
    private final int fd;

    Receiver(RecvMode mode, IoUring ring, int fd, long recvUserData, int count, int bufferSize) throws ErrnoException {
        this.mode = mode;
        this.sq = ring.sq();
        this.fd = fd;
        this.recvUserData = recvUserData;
        this.bufferSize = bufferSize;
        this.slab = arena.allocate((long) count * bufferSize, 64);
        this.bufferRing = mode.bufferRing() ? BufferRing.register(ring, GROUP, count, bufferSize) : null;
        if (mode == RecvMode.MULTISHOT_PROVIDED) {
            sq.prepareProvideBuffers(slab.address(), bufferSize, count, GROUP, 0, PROVIDE_USER_DATA);
            sq.skipCompletionOnSuccess();
        }
    }

    void arm() {
        switch (mode) {
            case SINGLE -> sq.prepareRecv(fd, slab.address(), bufferSize, recvUserData);
            case SINGLE_BUFRING -> sq.prepareRecvSelect(fd, GROUP, recvUserData);
            case MULTISHOT_PROVIDED, MULTISHOT_BUFRING -> sq.prepareRecvMultishot(fd, GROUP, recvUserData);
        }
    }

    /** The address of the bytes a recv completion with these flags delivered. */
    long address(int flags) {
        return switch (mode) {
            case SINGLE -> slab.address();
            case MULTISHOT_PROVIDED -> slab.address() + (long) CompletionQueue.bufferId(flags) * bufferSize;
            case SINGLE_BUFRING, MULTISHOT_BUFRING -> bufferRing.address(CompletionQueue.bufferId(flags));
        };
    }

    /**
     * The bytes of that completion (res > 0) are used: give its buffer back, and re-arm the recv
     * if it ended (always for a single recv; for a multishot one when the kernel stopped it).
     */
    void done(int flags) {
        if (CompletionQueue.hasBuffer(flags)) {
            int id = CompletionQueue.bufferId(flags);
            if (bufferRing != null) {
                bufferRing.recycle(id);
            } else {
                sq.prepareProvideBuffers(address(flags), bufferSize, 1, GROUP, id, PROVIDE_USER_DATA);
                sq.skipCompletionOnSuccess();
            }
        }
        if (!CompletionQueue.hasMore(flags)) arm();
    }

    @Override
    public void close() {
        if (bufferRing != null) bufferRing.close();
        arena.close();
    }
}
