package niolab.server.lt;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import niolab.server.base.LoopConnection;
import niolab.server.base.UnboundedOutput;
import niolab.server.proto.HttpConnection;

/**
 * What lt keeps for a connection, attached to its key: for HTTP always (the parser state), for
 * echo only once it needs it: at accept when {@code --idle-timeout} is on, else at its first
 * partial write. Most connections of a plain echo run never get one.
 */
final class LtConnection extends LoopConnection {
    /** The sweep number of its last event ({@link niolab.server.base.IdleSweep}). */
    long lastActive;
    /** The unwritten rest of a partial write; allocated the first time one is needed. */
    ByteBuffer pending;
    /** {@code lt --protocol http}: the parser state and parked output; null for echo. */
    HttpConnection http;
    /** Its key, once it lingers: the skeleton's linger deadline names the connection, and lt closes a key. */
    SelectionKey key;
    /** MISTAKE unbounded-output: everything read while output was pending; null otherwise. */
    UnboundedOutput unsent;

    LtConnection(long lastActive) {
        this.lastActive = lastActive;
    }

    /** A key's attachment has output waiting for the socket (asked only under MISTAKE standing-write). */
    static boolean hasPendingOutput(Object attachment) {
        LtConnection c = (LtConnection) attachment;
        if (c == null) return false;
        ByteBuffer out = c.http != null ? c.http.pendingOutput() : c.pending;
        return out != null && out.hasRemaining() || c.unsent != null && !c.unsent.isEmpty();
    }

    /** MISTAKE unbounded-output: the connection is closed; its queue is freed now, not at some GC. */
    static void freeUnsent(Object attachment) {
        LtConnection c = (LtConnection) attachment;
        if (c != null && c.unsent != null) c.unsent.free();
    }
}
