package niolab.server.backend;

import java.nio.ByteBuffer;
import niolab.server.proto.Healthz;

/**
 * Reads one RESP reply to a GET where it lies in a buffer, without copying or allocating: the
 * loop posture's client takes its replies two at a time straight out of its read buffer.
 *
 * <pre>
 *   $7\r\nnio-lab\r\n     a value: start and length in the buffer
 *   $-1\r\n               no such key: length -1
 *   -ERR ...\r\n          an error reply: that request fails, the connection stays
 * </pre>
 * Anything else (another type, a bad length, a missing CRLF, a value over
 * {@link Healthz#MAX_VALUE_BYTES}) is malformed: the replies that follow can no longer be
 * matched to their requests, so the client closes the connection.
 */
final class RespReply {
    static final int NEED_MORE = 0;
    static final int VALUE = 1;
    static final int ERROR = 2;
    static final int MALFORMED = 3;

    /** Longest header ({@code $-1}, {@code $256}) or error line we wait for before calling it malformed. */
    private static final int MAX_LINE = 512;

    /** Of the last VALUE: where it starts, its length (-1: no such key). Of VALUE and ERROR: the index after it. */
    int start;
    int length;
    int end;

    /** Reads the reply at {@code [from, limit)} of {@code buf} (absolute indexes; the buffer is not moved). */
    int read(ByteBuffer buf, int from, int limit) {
        if (from >= limit) return NEED_MORE;
        byte type = buf.get(from);
        int lineEnd = lineEnd(buf, from + 1, limit);
        if (lineEnd == NEED_MORE) return limit - from > MAX_LINE ? MALFORMED : NEED_MORE;
        if (lineEnd < 0) return MALFORMED;
        if (type == '-') {
            end = lineEnd;
            return ERROR;
        }
        if (type != '$') return MALFORMED;
        int n = bulkLength(buf, from + 1, lineEnd - 2);
        if (n == -1) {
            length = -1;
            end = lineEnd;
            return VALUE;
        }
        if (n < 0 || n > Healthz.MAX_VALUE_BYTES) return MALFORMED;
        if (lineEnd + n + 2 > limit) return NEED_MORE;
        if (buf.get(lineEnd + n) != '\r' || buf.get(lineEnd + n + 1) != '\n') return MALFORMED;
        start = lineEnd;
        length = n;
        end = lineEnd + n + 2;
        return VALUE;
    }

    /** The index after the CRLF ending the line that starts at {@code from}; NEED_MORE if it is not in yet; -1 for a bare CR. */
    private static int lineEnd(ByteBuffer buf, int from, int limit) {
        for (int i = from; i < limit && i - from < MAX_LINE; i++) {
            if (buf.get(i) != '\r') continue;
            if (i + 1 == limit) return NEED_MORE;
            return buf.get(i + 1) == '\n' ? i + 2 : -1;
        }
        return NEED_MORE;
    }

    /** The decimal in {@code [from, to)}: -1 for "-1", -2 when it is not a length. */
    private static int bulkLength(ByteBuffer buf, int from, int to) {
        if (to - from == 2 && buf.get(from) == '-' && buf.get(from + 1) == '1') return -1;
        if (to == from || to - from > 9) return -2;
        int n = 0;
        for (int i = from; i < to; i++) {
            int d = buf.get(i) - '0';
            if (d < 0 || d > 9) return -2;
            n = n * 10 + d;
        }
        return n;
    }
}
