package niolab.server.lt;

import java.nio.ByteBuffer;
import niolab.server.proto.HttpConnection;

/**
 * What lt keeps for a connection, attached to its key: for HTTP always (the parser state), for
 * echo only once it needs it: at accept when {@code --idle-timeout} is on, else at its first
 * partial write. Most connections of a plain echo run never get one.
 */
final class LtConnection {
    /** The sweep number of its last event ({@link niolab.server.IdleSweep}). */
    long lastActive;
    /** The unwritten rest of a partial write; allocated the first time one is needed. */
    ByteBuffer pending;
    /** {@code lt --protocol http}: the parser state and parked output; null for echo. */
    HttpConnection http;

    LtConnection(long lastActive) {
        this.lastActive = lastActive;
    }
}
