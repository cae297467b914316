package niolab.server.uring;

import java.nio.ByteBuffer;
import java.util.Arrays;
import niolab.uring.SubmissionQueue;

/**
 * Where recvs put their bytes, one subclass per {@code --uring-mode}, and what each connection
 * has received and not yet answered. A buffer is known by its id; the unanswered bytes of
 * buffer {@code id} are {@code [start[id], end[id])}, and {@code next[id]} links it to the
 * next buffer the same connection holds, so a connection's queue costs no object.
 *
 * <pre>
 *   basic      {@link OwnBuffers}       a buffer per connection (id = its slot); the next recv only once it is answered
 *   multishot  {@link ProvidedBuffers}  a pool shared by all connections, picked by the kernel; a buffer goes back by SQE
 *   bufring    {@link RingBuffers}      the same pool as a buffer ring; a buffer goes back with two stores
 * </pre>
 *
 * In a completion model the kernel owns a buffer from the recv's submission to its
 * completion, and the server owns it until it has answered its bytes: that is the memory a
 * connection costs, and what each mode changes. Nothing here allocates after warm-up.
 */
abstract class RecvBuffers implements AutoCloseable {
    protected final SubmissionQueue sq;
    /** {@code --buffer-size}: the most a connection may hold, received and unanswered. */
    protected final int capacity;
    /** Bytes per buffer. */
    final int size;
    private int[] next;
    private int[] start;
    private int[] end;
    /** Buffers given back so far: a connection starved of buffers retries once this moves. */
    long givenBack;

    RecvBuffers(SubmissionQueue sq, int capacity, int size, int ids) {
        this.sq = sq;
        this.capacity = capacity;
        this.size = size;
        next = new int[ids];
        start = new int[ids];
        end = new int[ids];
    }

    /** Prepares the next recv of {@code c} if its backpressure allows one; true if it did. */
    abstract boolean arm(UringConnection c, long userData);

    /** The buffer a recv completion of {@code c} with these CQE flags filled. */
    abstract int filled(UringConnection c, int cqeFlags);

    abstract long address(int id);

    /** Buffer {@code id} as a ByteBuffer whose position and limit frame its unanswered bytes. */
    abstract ByteBuffer view(int id);

    /** The server is done with buffer {@code id}: the kernel may fill it again. */
    abstract void giveBack(int id);

    /** Kernels without the recv byte limit: the armed recv of {@code c} must be cancelled, it holds enough. */
    boolean mustCancel(UringConnection c) {
        return false;
    }

    /** The table has {@code slots} slots now (basic numbers its buffers by slot). */
    void slotsGrew(int slots) {
        if (slots <= next.length) return;
        next = Arrays.copyOf(next, slots);
        start = Arrays.copyOf(start, slots);
        end = Arrays.copyOf(end, slots);
    }

    /** {@code c} received {@code n} bytes into buffer {@code id}: they wait at the end of its queue. */
    void hold(UringConnection c, int id, int n) {
        start[id] = 0;
        end[id] = n;
        next[id] = -1;
        if (c.heldTail >= 0) next[c.heldTail] = id;
        else c.heldHead = id;
        c.heldTail = id;
        c.heldBytes += n;
    }

    /** {@code n} more bytes were copied to the end of the last buffer {@code c} holds. */
    protected final void grewTail(UringConnection c, int n) {
        end[c.heldTail] += n;
        c.heldBytes += n;
    }

    /** The first unanswered byte of {@code c}, in its oldest buffer. */
    long heldAddress(UringConnection c) {
        return address(c.heldHead) + start[c.heldHead];
    }

    /** The unanswered bytes of the oldest buffer of {@code c}. */
    int heldLength(UringConnection c) {
        return end[c.heldHead] - start[c.heldHead];
    }

    protected final int start(int id) {
        return start[id];
    }

    protected final int end(int id) {
        return end[id];
    }

    /** {@code n} bytes of the oldest buffer of {@code c} are answered; an emptied buffer goes back. */
    void consume(UringConnection c, int n) {
        int id = c.heldHead;
        start[id] += n;
        c.heldBytes -= n;
        if (start[id] < end[id]) return;
        c.heldHead = next[id];
        if (c.heldHead < 0) c.heldTail = -1;
        giveBack(id);
    }

    /** Gives back everything {@code c} holds (it is closing, or its answer ended the exchange). */
    void releaseAll(UringConnection c) {
        for (int id = c.heldHead; id >= 0; id = next[id]) giveBack(id);
        c.heldHead = -1;
        c.heldTail = -1;
        c.heldBytes = 0;
    }

    /** Frees the buffers; on the loop thread, once no request uses them. */
    @Override
    public abstract void close();
}
