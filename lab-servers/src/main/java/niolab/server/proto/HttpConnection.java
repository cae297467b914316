package niolab.server.proto;

import java.nio.ByteBuffer;
import niolab.server.base.BusyWork;

/**
 * One HTTP connection's state, for {@link HttpPing#process}: the parser's position in the
 * current request, the response still owed when the output buffer was full, the
 * {@code /healthz} request waiting for its backend, and, for hand-written event loops, the
 * slow-path buffers used when a write is partial or a request waits.
 *
 * <p>Hot fields first (read on every call); the two buffers are cold and allocated only the
 * first time this connection's output does not fit into the socket at once, or a request
 * waits with more requests behind it.
 */
public final class HttpConnection {
    final HttpRequestParser parser;
    /** A response that did not fit into the output buffer; it goes first on the next call. */
    byte[] owed;
    boolean owedClose;
    /** The /healthz request whose answer is owed (its {@link Healthz} response style), or {@link Healthz#NONE}. */
    int healthz = Healthz.NONE;
    /** Which connection this is, for a loop that reuses the state (et by fd number): a late backend answer checks it. */
    private long generation;

    /** A connection whose requests cost nothing beyond their answer. */
    public HttpConnection() {
        this(null);
    }

    /** A connection whose every request also costs {@code work} ({@code --work-ns}; null for none). */
    public HttpConnection(BusyWork work) {
        parser = new HttpRequestParser(work);
    }

    /** {@link #keptInput()} when nothing was kept: no remaining bytes, and nothing can be put. */
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0).asReadOnlyBuffer();

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
        // Once per connection, on the slow path: the fast path writes from shared buffers.
        if (pendingOut == null) pendingOut = ByteBuffer.allocateDirect(outRest.capacity());
        if (pendingIn == null) pendingIn = ByteBuffer.allocateDirect(inRest.capacity()).flip();
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
        healthz = Healthz.NONE;
        generation++;
        pendingOut = null;
        pendingIn = null;
        closeAfterPending = false;
    }

    /**
     * Keeps the requests read behind a {@code /healthz} that waits for its backend: the loop
     * reads no more from this connection until the answer has come, and then feeds
     * {@link #keptInput()} back to {@link HttpPing#process}. Allocates only if there is something
     * to keep (a pipelining client), once per connection.
     */
    public void keepInput(ByteBuffer inRest) {
        if (inRest == pendingIn) return; // already here: the loop was answering the kept requests
        if (!inRest.hasRemaining()) {
            if (pendingIn != null) pendingIn.limit(0);
            return;
        }
        if (pendingIn == null) pendingIn = ByteBuffer.allocateDirect(inRest.capacity());
        pendingIn.clear();
        pendingIn.put(inRest).flip();
    }

    /** What {@link #keepInput} kept (read mode); empty if nothing was. */
    public ByteBuffer keptInput() {
        return pendingIn != null ? pendingIn : NOTHING;
    }

    /** The answer to a {@code /healthz} is owed: the loop has it waiting for the backend (or about to). */
    public boolean awaitsBackend() {
        return healthz != Healthz.NONE;
    }

    public long generation() {
        return generation;
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
