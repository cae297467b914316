package niolab.server.proto;

import java.nio.ByteBuffer;

/**
 * One HTTP connection's state, for {@link HttpPing#process}: the parser's position in the
 * current request, the response still owed when the output buffer was full, and, for
 * hand-written event loops, the slow-path buffers used when a write is partial.
 *
 * <p>Hot fields first (read on every call); the two buffers are cold and allocated only the
 * first time this connection's output does not fit into the socket at once.
 */
public final class HttpConnection {
    final HttpRequestParser parser = new HttpRequestParser();
    /** A response that did not fit into the output buffer; it goes first on the next call. */
    byte[] owed;
    boolean owedClose;

    private ByteBuffer pendingOut;
    private ByteBuffer pendingIn;
    private boolean closeAfterPending;

    /**
     * Keeps what a loop could not finish: the unwritten responses and the unparsed requests.
     * The loop then waits for writability and, once {@link #pendingOutput()} is empty, closes
     * (if {@link #closeAfterPending()}) or feeds {@link #pendingInput()} back to
     * {@link HttpPing#process}. Reading stops meanwhile, so a client that does not read its
     * responses holds at most these two buffers here; the rest waits in the kernel.
     */
    public void park(ByteBuffer outRest, ByteBuffer inRest, int flags) {
        if (pendingOut == null) {
            // Once per connection, on the slow path: the fast path writes from shared buffers.
            pendingOut = ByteBuffer.allocateDirect(outRest.capacity());
            pendingIn = ByteBuffer.allocateDirect(inRest.capacity());
            pendingIn.flip();
        }
        pendingOut.clear();
        pendingOut.put(outRest).flip();
        if (inRest != pendingIn) {
            pendingIn.clear();
            pendingIn.put(inRest).flip();
        }
        closeAfterPending = (flags & HttpPing.CLOSE) != 0;
    }

    /**
     * Makes this state fit a new connection, for loops that reuse it (et keeps one per fd
     * number). The parked buffers are dropped: an idle slot holds no memory.
     */
    public void reset() {
        parser.reset();
        owed = null;
        owedClose = false;
        pendingOut = null;
        pendingIn = null;
        closeAfterPending = false;
    }

    /** Responses waiting for the socket (read mode); null until the first {@link #park}. */
    public ByteBuffer pendingOutput() {
        return pendingOut;
    }

    /** Requests read but not yet parsed (read mode); null until the first {@link #park}. */
    public ByteBuffer pendingInput() {
        return pendingIn;
    }

    /** The parked output ends with a response that closes the connection. */
    public boolean closeAfterPending() {
        return closeAfterPending;
    }
}
