package niolab.server.uring;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The native buffers HTTP responses are written into and sent from. et answers every
 * connection from one output buffer, because its send has copied the bytes when it returns; a
 * send SQE reads them later, so here a buffer is lent to a connection until its send
 * completes. The pool grows to the most sends in flight at once, and no further.
 */
final class ResponseBuffers {
    private final Arena arena;
    private final int size;
    private long[] addresses = new long[0];
    private ByteBuffer[] views = new ByteBuffer[0];
    private int[] free = new int[0];
    private int freeCount;

    ResponseBuffers(Arena arena, int size) {
        this.arena = arena;
        this.size = size;
    }

    /** A buffer's index, lent until {@link #giveBack}. */
    int take() {
        if (freeCount == 0) grow();
        return free[--freeCount];
    }

    void giveBack(int buffer) {
        free[freeCount++] = buffer;
    }

    /** The buffer as an empty ByteBuffer in write mode. */
    ByteBuffer cleared(int buffer) {
        return views[buffer].clear();
    }

    long address(int buffer) {
        return addresses[buffer];
    }

    /** Cold: the first time this many sends are in flight. */
    private void grow() {
        int n = addresses.length;
        int more = Math.max(16, n);
        addresses = Arrays.copyOf(addresses, n + more);
        views = Arrays.copyOf(views, n + more);
        free = Arrays.copyOf(free, n + more);
        MemorySegment slab = arena.allocate((long) more * size, 64);
        for (int i = 0; i < more; i++) {
            MemorySegment buffer = slab.asSlice((long) i * size, size);
            addresses[n + i] = buffer.address();
            views[n + i] = buffer.asByteBuffer();
            free[freeCount++] = n + i;
        }
    }
}
