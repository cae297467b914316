package niolab.server.base;

import java.time.Duration;

/**
 * The lingering close of RFC 9112 section 9.6, the event loops' half ({@link EventLoop}).
 *
 * <p>A server that closes a socket whose receive buffer still holds unread bytes makes the
 * kernel send a reset, and a reset makes the client's kernel throw away what it had received
 * and not yet handed to the client: a 431 answering a large head, or the last answer before
 * {@code Connection: close}, is lost. So after a closing answer has gone out whole, a loop
 * shuts down its sending side (the client reads the answer, then end of stream), keeps the
 * connection as an ordinary one in this state, reads what still comes and throws it away, and
 * closes at the client's end of stream, or when {@code --linger-bytes} have been thrown away, or
 * when {@code --linger-time} has passed since it began, whichever comes first.
 *
 * <p>The deadlines are a FIFO queue linked through the connections themselves: each is its
 * start plus the one {@code --linger-time}, so the oldest is always due first, and the loop's
 * wait is bounded by the head's deadline while any connection lingers. No allocation, no scan.
 */
public final class Linger {
    /** Long enough for a client that has sent its request to read the answer and close, even across a slow WAN. */
    public static final String DEFAULT_TIME = "2s";
    /** More than any head a client sends before it reads; a client sending more than this after its answer is not reading. */
    public static final String DEFAULT_BYTES = "1048576";

    final long timeNanos;
    final long maxBytes;
    private LoopConnection oldest;
    private LoopConnection newest;

    public Linger(Duration time, long maxBytes) {
        this.timeNanos = time.toNanos();
        this.maxBytes = maxBytes;
    }

    /** {@code c} begins to linger; it goes to the back of the queue. */
    void add(LoopConnection c) {
        c.lingering = true;
        c.lingerBytes = 0;
        c.lingerDeadline = System.nanoTime() + timeNanos;
        c.previousLingering = newest;
        c.nextLingering = null;
        if (newest == null) oldest = c;
        else newest.nextLingering = c;
        newest = c;
    }

    /** {@code c} stops lingering (closed, whatever the reason); false if it was not lingering. */
    boolean remove(LoopConnection c) {
        if (!c.lingering) return false;
        c.lingering = false;
        if (c.previousLingering == null) oldest = c.nextLingering;
        else c.previousLingering.nextLingering = c.nextLingering;
        if (c.nextLingering == null) newest = c.previousLingering;
        else c.nextLingering.previousLingering = c.previousLingering;
        c.previousLingering = null;
        c.nextLingering = null;
        return true;
    }

    /** The oldest lingering connection, taken off the queue, if its time is up; else null. */
    LoopConnection overdue() {
        LoopConnection c = oldest;
        if (c == null || System.nanoTime() - c.lingerDeadline < 0) return null;
        remove(c);
        return c;
    }

    /** The loop's wait in ms, given the one it needs otherwise ({@code otherMs}, -1: none): bounded by the oldest deadline. */
    long waitMillis(long otherMs) {
        if (oldest == null) return otherMs;
        return WaitTimeout.sooner(otherMs, WaitTimeout.until(oldest.lingerDeadline, 0));
    }
}
