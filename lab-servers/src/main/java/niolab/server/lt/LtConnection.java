package niolab.server.lt;

import java.nio.ByteBuffer;

/**
 * What lt keeps for a connection, attached to its key only once it needs it: at accept when
 * {@code --idle-timeout} is on, else at its first partial write. Most connections of a plain
 * echo run never get one.
 */
final class LtConnection {
    /** The sweep number of its last event ({@link niolab.server.IdleSweep}). */
    long lastActive;
    /** The unwritten rest of a partial write; allocated the first time one is needed. */
    ByteBuffer pending;

    LtConnection(long lastActive) {
        this.lastActive = lastActive;
    }
}
