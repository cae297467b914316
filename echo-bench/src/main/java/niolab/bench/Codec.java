package niolab.bench;

import java.nio.ByteBuffer;

/**
 * The request/response protocol a load run speaks, over {@link ByteBuffer}s so that the event
 * loops can drive any protocol without allocating. One instance is shared by every connection
 * and thread: implementations must be stateless (or immutable).
 *
 * <p>Adding a protocol (say HTTP {@code GET /ping}) is one class: encode the request, and
 * recognise one complete, correct response at the front of the read buffer.
 */
public interface Codec {
    /** {@link #decodeResponse}: the buffer does not hold a whole response yet. */
    int NEED_MORE = 0;
    /** {@link #decodeResponse}: the bytes are not the expected response. */
    int MISMATCH = -1;

    /** Short name for reports, e.g. {@code echo}. */
    String name();

    /** Bytes of one request (the write buffer holds {@code pipeline} of them). */
    int requestLength();

    /** Upper bound of one response's length (sizes the read buffer). */
    int maxResponseLength();

    /** Puts one request at {@code out}'s position; room for {@link #requestLength()} is guaranteed. */
    void encodeRequest(ByteBuffer out);

    /**
     * Looks at the bytes from {@code in}'s position to its limit: returns {@link #NEED_MORE}
     * (position untouched) if one whole response is not there yet, {@link #MISMATCH} if the bytes
     * are wrong, else the response's length with the position moved past it.
     */
    int decodeResponse(ByteBuffer in);
}
