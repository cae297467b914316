package niolab.server.proto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The {@code /ping} responder every architecture shares: {@code GET /ping} answers
 * {@code 200 {"status":"ok"}} as {@code application/json}.
 *
 * <p>An event loop calls it once per read, with the bytes read and an empty output buffer:
 * <pre>
 *   out.clear();
 *   int flags = HttpPing.process(in, out, conn);   // every complete request in, answered in order
 *   out.flip();
 *   write(out);                                    // the whole batch in one write
 *   // flags & OUT_FULL: out filled up; write it, then call again with the rest of in
 *   // flags & CLOSE:    close once out has been written (Connection: close, HTTP/1.0, 400, 431)
 * </pre>
 * A server with a backend calls {@code process(in, out, conn, true)}: then a {@code /healthz}
 * request stops the batch with {@link #BACKEND}, and its answer comes from the backend
 * through {@link Healthz#write}.
 * Responses are constant byte arrays, encoded once; answering a request is one bulk copy.
 * Pipelined requests are answered in order, all into the same output buffer, so a batch leaves
 * in one write. Nothing here allocates.
 *
 * <p>Status codes: 200 for GET and HEAD /ping (HEAD without the body), 405 with
 * {@code Allow: GET, HEAD} for other methods on /ping, 404 for other paths, 400 and close for a
 * malformed request (or any {@code Transfer-Encoding}), 431 and close for a head over 8 KiB.
 * There is no Date header: the server answers from constants, as the original write-up's benchmarks do.
 */
public final class HttpPing {
    /** Close the connection once the output has been written; the rest of the input was dropped. */
    public static final int CLOSE = 1;
    /** The output buffer is full: write it, then call again with the same input. */
    public static final int OUT_FULL = 2;
    /**
     * A {@code /healthz} was read: its answer needs the backend. Write what {@code out} holds
     * first; once the answer is in ({@link Healthz#write}), call again with the rest of the input.
     * Until then every call returns BACKEND at once.
     */
    public static final int BACKEND = 4;

    public static final String BODY = "{\"status\":\"ok\"}";

    // Responses by [status][HEAD?][connection]; connection: 1.1 default, explicit keep-alive (1.0), close.
    private static final int OK = 0;
    private static final int NOT_FOUND = 1;
    private static final int NOT_ALLOWED = 2;
    private static final int KEEP = 0;
    private static final int KEEP_EXPLICIT = 1;
    static final int CLOSING = 2;
    static final int CONNECTION_STYLES = 3;
    private static final byte[][][][] RESPONSES = new byte[3][2][3][];
    private static final byte[] BAD_REQUEST = encode("400 Bad Request", "", "", false, CLOSING);
    private static final byte[] HEAD_TOO_LARGE = encode("431 Request Header Fields Too Large", "", "", false, CLOSING);

    /** The longest response; an output buffer must hold at least this much. */
    public static final int MAX_RESPONSE_BYTES;

    static {
        int max = Math.max(BAD_REQUEST.length, HEAD_TOO_LARGE.length);
        for (int head = 0; head < 2; head++) {
            for (int conn = KEEP; conn <= CLOSING; conn++) {
                RESPONSES[OK][head][conn] = encode("200 OK", "Content-Type: application/json\r\n", BODY, head == 1, conn);
                RESPONSES[NOT_FOUND][head][conn] = encode("404 Not Found", "", "", head == 1, conn);
                RESPONSES[NOT_ALLOWED][head][conn] = encode("405 Method Not Allowed", "Allow: GET, HEAD\r\n", "", head == 1, conn);
                for (int status = OK; status <= NOT_ALLOWED; status++) max = Math.max(max, RESPONSES[status][head][conn].length);
            }
        }
        MAX_RESPONSE_BYTES = max;
    }

    private HttpPing() {
    }

    /**
     * Answers every complete request in {@code in} (read mode; its position advances) into
     * {@code out} (write mode), keeping a partial request's progress in {@code conn}.
     * Returns 0 (all input used; wait for more), or {@link #CLOSE} and/or {@link #OUT_FULL}.
     */
    public static int process(ByteBuffer in, ByteBuffer out, HttpConnection conn) {
        return process(in, out, conn, false);
    }

    /**
     * {@link #process(ByteBuffer, ByteBuffer, HttpConnection)} for a server with a backend
     * when {@code backend}: a GET or HEAD {@code /healthz} stops the batch with {@link #BACKEND}
     * ({@code in} positioned after it); without one, {@code /healthz} is an unknown path (404).
     */
    public static int process(ByteBuffer in, ByteBuffer out, HttpConnection conn, boolean backend) {
        if (conn.owed != null) {
            if (out.remaining() < conn.owed.length) return OUT_FULL;
            out.put(conn.owed);
            conn.owed = null;
            if (conn.owedClose) return CLOSE;
        }
        if (conn.healthz != Healthz.NONE) return BACKEND;
        HttpRequestParser p = conn.parser;
        // BEGIN SOLUTION http-pipelining
        while (true) {
            int r = p.parse(in);
            if (r == HttpRequestParser.NEED_MORE) return 0;
            byte[] response;
            boolean close;
            if (r == HttpRequestParser.REQUEST) {
                close = !p.keepAlive();
                boolean healthz = backend && p.isHealthz();
                if (healthz && p.method() != HttpRequestParser.OTHER_METHOD) {
                    conn.healthz = Healthz.style(p.method() == HttpRequestParser.HEAD, connectionStyle(p, close));
                    if (close) in.position(in.limit());
                    return BACKEND;
                }
                response = response(p, close, healthz);
            } else {
                close = true;
                response = r == HttpRequestParser.BAD_REQUEST ? BAD_REQUEST : HEAD_TOO_LARGE;
            }
            if (close) {
                in.position(in.limit()); // nothing after the last answered request will be read
            }
            if (out.remaining() < response.length) {
                conn.owed = response;
                conn.owedClose = close;
                return OUT_FULL;
            }
            out.put(response);
            if (close) return CLOSE;
        }
        // END SOLUTION
    }

    /**
     * Where the body of the last response in {@code out[from, to)} begins (just after its blank
     * line), or {@code to} if there is none: for {@code --mistake nagle}, which writes a
     * response's headers and body apart. Allocates nothing.
     */
    public static int lastBodyStart(ByteBuffer out, int from, int to) {
        for (int i = to - 4; i >= from; i--) {
            if (out.get(i) == '\r' && out.get(i + 1) == '\n' && out.get(i + 2) == '\r' && out.get(i + 3) == '\n') return i + 4;
        }
        return to;
    }

    /** /ping's response, or 405 for /healthz ({@code healthz}: on a server with a backend) with another method, or 404. */
    private static byte[] response(HttpRequestParser p, boolean close, boolean healthz) {
        int status = !p.isPing() && !healthz ? NOT_FOUND : p.method() == HttpRequestParser.OTHER_METHOD ? NOT_ALLOWED : OK;
        return RESPONSES[status][p.method() == HttpRequestParser.HEAD ? 1 : 0][connectionStyle(p, close)];
    }

    private static int connectionStyle(HttpRequestParser p, boolean close) {
        return close ? CLOSING : p.isHttp10() ? KEEP_EXPLICIT : KEEP;
    }

    /** The Connection header line of a style: none for HTTP/1.1's default keep-alive. */
    static String connectionHeader(int conn) {
        return conn == CLOSING ? "Connection: close\r\n" : conn == KEEP_EXPLICIT ? "Connection: keep-alive\r\n" : "";
    }

    static byte[] encode(String status, String headers, String body, boolean head, int conn) {
        String text = "HTTP/1.1 " + status + "\r\n" + headers + "Content-Length: " + body.length() + "\r\n"
                + connectionHeader(conn) + "\r\n" + (head ? "" : body);
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
