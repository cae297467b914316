package niolab.server.proto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The {@code /healthz} responses of a server with a backend: {@code 200} with a small JSON body
 * built from the two values the backend returned, {@code 503} when the backend is down or
 * answered wrongly, {@code 504} when it answered too late.
 *
 * <pre>
 *   {"status":"ok","release":"0.1.0","region":null}        // region's key is missing: still 200
 * </pre>
 *
 * {@link HttpPing#process} stops at a {@code /healthz} and remembers how its answer must look
 * (HEAD or not, which {@code Connection} header) in the connection; the loop gets the values
 * from its backend into an {@link Answer} and calls {@link #write}. The 200 response is
 * assembled in the output buffer itself (header, escaped values, length), so answering
 * allocates nothing; the failures are constant byte arrays, as HttpPing's are.
 */
public final class Healthz {
    /** The JSON fields, one per backend value, in the order the backend returns them. */
    public static final String[] FIELDS = {"release", "region"};
    /** The longest value a field may hold; a longer one makes the answer a 503 (see {@link Answer#ok}). */
    public static final int MAX_VALUE_BYTES = 256;

    /** {@link HttpConnection#healthz} when no /healthz is owed. */
    static final int NONE = 0;
    private static final int HEAD = 1;
    private static final int STYLES = 2 * HttpPing.CONNECTION_STYLES;

    private static final byte[] OK_HEAD = ascii("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ");
    private static final byte[][] CONNECTION_HEADERS = new byte[HttpPing.CONNECTION_STYLES][];
    private static final byte[] BODY_START = ascii("{\"status\":\"ok\"");
    private static final byte[][] FIELD_STARTS = new byte[FIELDS.length][];
    private static final byte[] NULL = ascii("null");
    private static final byte[] HEX = ascii("0123456789abcdef");
    /** 503 and 504, by response style. */
    private static final byte[][] UNAVAILABLE = new byte[STYLES + 1][];
    private static final byte[][] TIMEOUT = new byte[STYLES + 1][];

    /** The longest /healthz response: every value byte escaped as {@code \\u00XX}. */
    public static final int MAX_RESPONSE_BYTES;

    static {
        int fieldBytes = 0;
        for (int i = 0; i < FIELDS.length; i++) {
            FIELD_STARTS[i] = ascii(",\"" + FIELDS[i] + "\":");
            fieldBytes += FIELD_STARTS[i].length + 2 + 6 * MAX_VALUE_BYTES;
        }
        int max = 0;
        for (int conn = 0; conn < HttpPing.CONNECTION_STYLES; conn++) {
            CONNECTION_HEADERS[conn] = ascii(HttpPing.connectionHeader(conn));
            for (int head = 0; head < 2; head++) {
                int style = style(head == 1, conn);
                UNAVAILABLE[style] = HttpPing.encode("503 Service Unavailable", "Content-Type: application/json\r\n",
                        "{\"status\":\"unavailable\"}", head == 1, conn);
                TIMEOUT[style] = HttpPing.encode("504 Gateway Timeout", "Content-Type: application/json\r\n",
                        "{\"status\":\"timeout\"}", head == 1, conn);
                max = Math.max(max, Math.max(UNAVAILABLE[style].length, TIMEOUT[style].length));
            }
            max = Math.max(max, OK_HEAD.length + 10 + 4 + CONNECTION_HEADERS[conn].length + BODY_START.length + fieldBytes + 1);
        }
        MAX_RESPONSE_BYTES = max;
    }

    private Healthz() {
    }

    /** How the answer to a request must look: HEAD (no body) or not, and its Connection header. */
    static int style(boolean head, int connectionStyle) {
        return 1 + (head ? HEAD : 0) + 2 * connectionStyle;
    }

    /**
     * What the backend said, for {@link #write}: a status, and for 200 where the values are (a
     * range of a buffer the backend owns, or -1 for a missing key). One instance per backend,
     * refilled for every answer.
     */
    public static final class Answer {
        public static final int OK = 200;
        public static final int UNAVAILABLE = 503;
        public static final int TIMEOUT = 504;

        int status;
        ByteBuffer values;
        final int[] starts = new int[FIELDS.length];
        final int[] lengths = new int[FIELDS.length];

        /**
         * 200 with the values at {@code [start, start + length)} of {@code values} (length -1:
         * the key is missing). A value over {@link #MAX_VALUE_BYTES} turns the answer into 503.
         */
        public Answer ok(ByteBuffer values, int start0, int length0, int start1, int length1) {
            if (length0 > MAX_VALUE_BYTES || length1 > MAX_VALUE_BYTES) return failed(UNAVAILABLE);
            status = OK;
            this.values = values;
            starts[0] = start0;
            lengths[0] = length0;
            starts[1] = start1;
            lengths[1] = length1;
            return this;
        }

        /** 503 or 504. */
        public Answer failed(int status) {
            this.status = status;
            values = null;
            return this;
        }

        public int status() {
            return status;
        }
    }

    /**
     * Writes the answer to the connection's owed {@code /healthz} into {@code out} (room for
     * {@link #MAX_RESPONSE_BYTES} needed) and marks it answered. Returns {@link HttpPing#CLOSE}
     * if the request asked to close the connection, else 0.
     */
    public static int write(ByteBuffer out, HttpConnection conn, Answer answer) {
        int style = conn.healthz;
        conn.healthz = NONE;
        int close = (style - 1) / 2 == HttpPing.CLOSING ? HttpPing.CLOSE : 0;
        if (answer.status != Answer.OK) {
            out.put(answer.status == Answer.TIMEOUT ? TIMEOUT[style] : UNAVAILABLE[style]);
            return close;
        }
        int bodyLength = BODY_START.length + 1;
        for (int i = 0; i < FIELDS.length; i++) {
            bodyLength += FIELD_STARTS[i].length + jsonLength(answer.values, answer.starts[i], answer.lengths[i]);
        }
        out.put(OK_HEAD);
        putDecimal(out, bodyLength);
        out.put((byte) '\r').put((byte) '\n').put(CONNECTION_HEADERS[(style - 1) / 2]).put((byte) '\r').put((byte) '\n');
        if (((style - 1) & HEAD) != 0) return close;
        out.put(BODY_START);
        for (int i = 0; i < FIELDS.length; i++) {
            out.put(FIELD_STARTS[i]);
            putJson(out, answer.values, answer.starts[i], answer.lengths[i]);
        }
        out.put((byte) '}');
        return close;
    }

    /** Bytes of the value as a JSON string (quoted and escaped), or of {@code null}. */
    private static int jsonLength(ByteBuffer src, int start, int length) {
        if (length < 0) return NULL.length;
        int n = 2;
        for (int i = start; i < start + length; i++) {
            int b = src.get(i) & 0xFF;
            n += b == '"' || b == '\\' ? 2 : b < 0x20 ? 6 : 1;
        }
        return n;
    }

    /** The value as a JSON string; bytes from 0x80 pass as they are (UTF-8 stays UTF-8). */
    private static void putJson(ByteBuffer out, ByteBuffer src, int start, int length) {
        if (length < 0) {
            out.put(NULL);
            return;
        }
        out.put((byte) '"');
        for (int i = start; i < start + length; i++) {
            byte b = src.get(i);
            if (b == '"' || b == '\\') {
                out.put((byte) '\\').put(b);
            } else if (b >= 0 && b < 0x20) {
                out.put((byte) '\\').put((byte) 'u').put((byte) '0').put((byte) '0').put(HEX[b >> 4]).put(HEX[b & 0xF]);
            } else {
                out.put(b);
            }
        }
        out.put((byte) '"');
    }

    private static void putDecimal(ByteBuffer out, int n) {
        int div = 1;
        while (div <= n / 10) div *= 10;
        for (; div > 0; div /= 10) out.put((byte) ('0' + n / div % 10));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
