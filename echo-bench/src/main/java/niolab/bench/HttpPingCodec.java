package niolab.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 {@code GET /ping}: a response counts only if its status is 200 and its body is
 * exactly {@code {"status":"ok"}}; its end is found through {@code Content-Length}, so
 * pipelined responses are told apart whatever headers the server adds. Another path
 * ({@code --path /healthz}) counts any 200 response whose body is at most 4 KiB: its body
 * depends on the server's backend, not on the protocol.
 *
 * <p>Short connections (one request per connection) send {@code Connection: close}, as wrk
 * does with {@code -H 'Connection: close'}: the server then closes too, and the client closes
 * as soon as the response is in. Decoding reads the buffer with absolute gets and allocates
 * nothing.
 */
public final class HttpPingCodec implements Codec {
    static final byte[] BODY = ascii("{\"status\":\"ok\"}");
    /** A head longer than this without its blank line is not a /ping response. */
    private static final int MAX_HEAD = 4096;
    /** The longest body of a path other than /ping. */
    private static final int MAX_BODY = 4096;
    private static final byte[] STATUS_PREFIX = ascii("HTTP/1.");
    private static final byte[] STATUS_200 = ascii(" 200");
    private static final byte[] CONTENT_LENGTH = ascii("content-length:");
    private static final byte CR = '\r';
    private static final byte LF = '\n';

    private final byte[] request;
    /** The body every response must have ({@code /ping}), or null: any body up to MAX_BODY. */
    private final byte[] body;

    /** @param host the {@code Host} header; {@code keepAlive} false adds {@code Connection: close} */
    public HttpPingCodec(String host, boolean keepAlive) {
        this(host, keepAlive, "/ping");
    }

    /** The same, for {@code GET path}. */
    public HttpPingCodec(String host, boolean keepAlive, String path) {
        this.request = ascii("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n" + (keepAlive ? "" : "Connection: close\r\n") + "\r\n");
        this.body = path.equals("/ping") ? BODY : null;
    }

    @Override
    public String name() {
        return "http";
    }

    @Override
    public int requestLength() {
        return request.length;
    }

    @Override
    public int maxResponseLength() {
        return MAX_HEAD + (body != null ? body.length : MAX_BODY);
    }

    @Override
    public void encodeRequest(ByteBuffer out) {
        out.put(request);
    }

    @Override
    public int decodeResponse(ByteBuffer in) {
        int p = in.position();
        int limit = in.limit();
        // The head's end is looked for within MAX_HEAD bytes only: a longer head would make a
        // response longer than maxResponseLength(), which the read buffer is sized by.
        int headEnd = headEnd(in, p, Math.min(limit, p + MAX_HEAD));
        if (headEnd < 0) return limit - p > MAX_HEAD ? MISMATCH : NEED_MORE;
        // "HTTP/1.x 200 ..." then the headers; only Content-Length matters
        if (!startsWith(in, p, STATUS_PREFIX, false) || !startsWith(in, p + STATUS_PREFIX.length + 1, STATUS_200, false)) {
            return MISMATCH;
        }
        long length = contentLength(in, p, headEnd);
        if (body != null ? length != body.length : length < 0 || length > MAX_BODY) return MISMATCH;
        int end = headEnd + (int) length;
        if (end > limit) return NEED_MORE;
        if (body != null && !startsWith(in, headEnd, body, false)) return MISMATCH;
        in.position(end);
        return end - p;
    }

    /** The index just after the head's blank line ({@code \r\n\r\n}), or -1 if it is not in yet. */
    private static int headEnd(ByteBuffer in, int from, int limit) {
        for (int i = from + 3; i < limit; i++) {
            if (in.get(i) == LF && in.get(i - 1) == CR && in.get(i - 2) == LF && in.get(i - 3) == CR) return i + 1;
        }
        return -1;
    }

    /** The Content-Length among the header lines of the head at {@code [from, headEnd)}, or -1. */
    private static long contentLength(ByteBuffer in, int from, int headEnd) {
        for (int line = from; line < headEnd; ) {
            int next = line;
            while (in.get(next) != LF) next++; // the head ends with LF: no bound needed
            next++;
            if (startsWith(in, line, CONTENT_LENGTH, true)) return digits(in, line + CONTENT_LENGTH.length, next);
            line = next;
        }
        return -1;
    }

    /** The decimal number in {@code [from, to)} between optional blanks, or -1 if there is none. */
    private static long digits(ByteBuffer in, int from, int to) {
        int i = from;
        while (i < to && (in.get(i) == ' ' || in.get(i) == '\t')) i++;
        long v = -1;
        for (int d; i < to && (d = in.get(i) - '0') >= 0 && d <= 9 && v < 1_000_000_000L; i++) v = (v < 0 ? 0 : v * 10) + d;
        while (i < to && (in.get(i) == ' ' || in.get(i) == '\t')) i++;
        return i < to && in.get(i) == CR ? v : -1;
    }

    /** Whether {@code word} is at {@code at} (ASCII case ignored if {@code fold}: the word is lower case). */
    private static boolean startsWith(ByteBuffer in, int at, byte[] word, boolean fold) {
        if (at + word.length > in.limit()) return false;
        for (int i = 0; i < word.length; i++) {
            int b = in.get(at + i);
            if (fold && b >= 'A' && b <= 'Z') b |= 0x20;
            if (b != word[i]) return false;
        }
        return true;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
