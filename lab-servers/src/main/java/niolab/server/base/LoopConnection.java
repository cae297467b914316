package niolab.server.base;

/**
 * What every event loop's connection class shares ({@code LtConnection}, {@code EtConnection},
 * {@code UringConnection}): its place in the {@link Linger} queue while it lingers after a
 * closing answer. The skeleton ({@link EventLoop}) reads and writes these fields; an
 * architecture only asks {@link #lingering()}.
 */
public abstract class LoopConnection {
    boolean lingering;
    /** {@link System#nanoTime()} at which the linger is cut off. */
    long lingerDeadline;
    /** Bytes read and thrown away since the linger began. */
    long lingerBytes;
    /** The linger queue, oldest first: every deadline is its start plus one constant, so this order is the deadlines' order. */
    LoopConnection previousLingering;
    LoopConnection nextLingering;

    /** Its closing answer is out and its sending side shut: what it sends now is read and thrown away. */
    public final boolean lingering() {
        return lingering;
    }
}
