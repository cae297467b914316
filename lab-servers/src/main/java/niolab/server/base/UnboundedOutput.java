package niolab.server.base;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import niolab.epoll.NativeBuffer;
import niolab.epoll.Syscalls;

/**
 * MISTAKE unbounded-output: what a loop that reads on while a connection's output is pending
 * has to keep: everything, in order. The correct loops stop reading instead and hold at most one
 * buffer per connection; here a client that sends and never reads makes the server's memory
 * grow with what it sends, until {@link #CAP}, this switch's own safety limit, closes the
 * connection before the process runs out of memory.
 *
 * <p>Chunks are malloc'd native memory ({@link NativeBuffer}, from the loop's binding), outside the Java heap and the
 * direct-memory limit, so the cap means the same whatever {@code -Xmx} the JVM runs with, and
 * the memory is freed at once when the connection closes. One chunk per read: this path
 * allocates on purpose; no correct path comes here.
 *
 * <pre>
 *   if (!q.add(readBuffer)) close(...);          // past the cap
 *   ByteBuffer head = q.head(); write(head); q.sent(head.position());   // lt
 *   send(fd, q.headAddress(), q.headLength()); q.sent(n);               // et
 * </pre>
 */
public final class UnboundedOutput {
    /** Bytes one connection may have queued before it is closed: far above what the course's clients send (64 MiB). */
    public static final long CAP = 1L << 30;

    private final Syscalls sys;
    private final ArrayDeque<NativeBuffer> chunks = new ArrayDeque<>();
    /** Bytes of the head chunk already sent. */
    private long headOffset;
    private long bytes;

    public UnboundedOutput(Syscalls sys) {
        this.sys = sys;
    }

    public boolean isEmpty() {
        return bytes == 0;
    }

    /** Queues what {@code src} holds (its position advances); false, queueing nothing, if that would pass {@link #CAP}. */
    public boolean add(ByteBuffer src) {
        int n = src.remaining();
        if (bytes + n > CAP) return false;
        NativeBuffer chunk = NativeBuffer.allocate(sys, n);
        chunk.view().duplicate().put(src);
        chunks.addLast(chunk);
        bytes += n;
        return true;
    }

    /** The unsent part of the oldest chunk, as a buffer to write (a new view each call). */
    public ByteBuffer head() {
        return chunks.peekFirst().view().duplicate().position((int) headOffset);
    }

    public long headAddress() {
        return chunks.peekFirst().address() + headOffset;
    }

    public long headLength() {
        return chunks.peekFirst().size() - headOffset;
    }

    /** {@code n} bytes of the head went out (never more than {@link #headLength()}). */
    public void sent(long n) {
        headOffset += n;
        bytes -= n;
        if (headOffset == chunks.peekFirst().size()) {
            chunks.removeFirst().close();
            headOffset = 0;
        }
    }

    /** Frees every chunk: the connection is closed. */
    public void free() {
        for (NativeBuffer m : chunks) m.close();
        chunks.clear();
        headOffset = 0;
        bytes = 0;
    }
}
