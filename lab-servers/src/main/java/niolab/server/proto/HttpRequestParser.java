package niolab.server.proto;

import java.nio.ByteBuffer;
import niolab.server.base.BusyWork;

/**
 * An incremental HTTP/1.x request parser: one instance per connection, fed whatever bytes each
 * read brings, down to one byte at a time. It keeps no copy of the request, only a few ints of
 * position (state, counters, partial matches), so a request split across reads costs nothing
 * extra and the parser allocates nothing, ever.
 *
 * <pre>
 *   int r = parser.parse(in);          // consumes bytes from in.position()
 *   if (r == HttpRequestParser.REQUEST) { parser.method(); parser.isPing(); parser.isHealthz(); parser.keepAlive(); ... }
 * </pre>
 *
 * <p>It understands what a /ping server needs and rejects what it cannot frame safely: the
 * method (GET, HEAD or other), whether the target is {@code /ping} or {@code /healthz} (a query is ignored), the
 * version (1.0 or 1.1), the {@code Connection} tokens {@code close} and {@code keep-alive},
 * {@code Content-Length} (the body is skipped), and a head limit of {@link #MAX_HEAD_BYTES}.
 * A {@code Transfer-Encoding} request is refused with 400: without chunked decoding the next
 * request's start would be guessed, which is how request smuggling begins.
 */
public final class HttpRequestParser {
    /** All input consumed, the request is not complete yet. */
    public static final int NEED_MORE = 0;
    /** A request is complete (head and body); its facts are readable until the next call. */
    public static final int REQUEST = 1;
    /** Malformed request line or header: answer 400 and close. */
    public static final int BAD_REQUEST = 2;
    /** Request line and headers over {@link #MAX_HEAD_BYTES}: answer 431 and close. */
    public static final int HEAD_TOO_LARGE = 3;

    public static final int MAX_HEAD_BYTES = 8192;

    public static final int GET = 1;
    public static final int HEAD = 2;
    public static final int OTHER_METHOD = 3;

    // States: the parser is always at one of these points of a request.
    private static final int START = 0;       // before the method; empty lines are skipped
    private static final int METHOD = 1;
    private static final int TARGET = 2;
    private static final int VERSION = 3;     // "HTTP/1.x"
    private static final int LINE_LF = 4;     // CR seen at the end of the request line
    private static final int FIELD_START = 5; // at the start of a header line (or the empty line)
    private static final int NAME = 6;
    private static final int VALUE = 7;
    private static final int VALUE_LF = 8;    // CR seen at the end of a header line
    private static final int HEAD_LF = 9;     // CR seen on the empty line that ends the head
    private static final int BODY = 10;       // skipping Content-Length bytes
    private static final int DEAD = 11;       // after an error: the connection is closing

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte SP = ' ';
    private static final byte HT = '\t';

    private static final int GET_BYTES = 'G' << 16 | 'E' << 8 | 'T';
    private static final int HEAD_BYTES = 'H' << 24 | 'E' << 16 | 'A' << 8 | 'D';
    // The targets it recognises, matched byte by byte as they come; a target's kind is its index here, or NONE.
    private static final byte[][] TARGETS = {ascii("/ping"), ascii("/healthz")};
    private static final int PING = 0;
    private static final int HEALTHZ = 1;
    private static final int ALL_TARGETS = (1 << TARGETS.length) - 1;
    private static final byte[] VERSION_PREFIX = {'H', 'T', 'T', 'P', '/', '1', '.'};

    // The headers it acts on, lower case; a header's kind is its index here, or NONE.
    private static final byte[][] NAMES = {ascii("connection"), ascii("content-length"), ascii("transfer-encoding")};
    private static final int NONE = -1;
    private static final int CONNECTION = 0;
    private static final int CONTENT_LENGTH = 1;
    private static final int TRANSFER_ENCODING = 2;
    private static final byte[][] CONNECTION_TOKENS = {ascii("close"), ascii("keep-alive")};
    private static final int ALL_NAMES = (1 << NAMES.length) - 1;
    private static final int ALL_TOKENS = (1 << CONNECTION_TOKENS.length) - 1;
    /** 18 digits cannot overflow a long; a longer Content-Length is refused. */
    private static final int MAX_LENGTH_DIGITS = 18;

    private static final boolean[] TCHAR = new boolean[256];

    static {
        for (int c = '0'; c <= '9'; c++) TCHAR[c] = true;
        for (int c = 'a'; c <= 'z'; c++) TCHAR[c] = true;
        for (int c = 'A'; c <= 'Z'; c++) TCHAR[c] = true;
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) TCHAR[c] = true;
    }

    /** {@code --work-ns}: its cost paid for each request completed; null for none. */
    private final BusyWork work;

    private int state = START;
    private int headBytes;
    /** Bytes of the current method, target (its path, before any query), name or Connection token. */
    private int length;
    /** Method bytes packed into an int; later, whether the target's query began, or the match position in the version. */
    private int match;
    /** Which of TARGETS, NAMES (then of CONNECTION_TOKENS) the bytes so far can still be, one bit each. */
    private int candidates;
    private int field = NONE;
    private long value;
    private boolean valueEnded;
    private long bodyLeft;

    // The request's facts, valid after REQUEST until the next parse().
    private int method;
    private int target = NONE;
    private boolean http10;
    private boolean sawClose;
    private boolean sawKeepAlive;
    private long contentLength = -1;

    /** A parser whose every completed request also costs {@code work} (null: nothing more). */
    HttpRequestParser(BusyWork work) {
        this.work = work;
    }

    /**
     * Consumes bytes from {@code in} (position to limit) until a request completes, an error is
     * found, or the input runs out; {@code in.position()} is left after the last byte used.
     * After an error every later call swallows its input: the caller is closing.
     */
    public int parse(ByteBuffer in) {
        int i = in.position();
        final int limit = in.limit();
        int s = state;
        int r = NEED_MORE;
        while (i < limit && r == NEED_MORE) {
            if (s == BODY) {
                int n = (int) Math.min(bodyLeft, limit - i);
                i += n;
                bodyLeft -= n;
                if (bodyLeft == 0) {
                    r = complete();
                    s = START;
                }
                continue;
            }
            if (s == DEAD) {
                i = limit;
                break;
            }
            if (decidesNothing(s)) {
                // Most of a head is bytes no rule looks at one by one (the Host value, a User-Agent,
                // a name or path no known one can still be): one tight loop, not a step per byte.
                int end = skip(in, s, i, Math.min(limit, i + MAX_HEAD_BYTES - headBytes));
                headBytes += end - i;
                i = end;
                if (i == limit) break;
            }
            if (++headBytes > MAX_HEAD_BYTES) {
                r = fail(HEAD_TOO_LARGE);
                s = state; // DEAD, which the state = s below must keep
                break;
            }
            int b = in.get(i++) & 0xFF;
            s = step(s, b);
            if (s < 0) {
                r = -s;
                s = state;
            }
        }
        state = s;
        in.position(i);
        return r;
    }

    /**
     * In state {@code s}, the next bytes can change nothing but the head's size until one that
     * {@link #step} must see: a value's end (or a byte no value may hold) when no rule reads
     * this field, a name's colon once no known name fits, a path's end once no known path fits
     * or its query began. (The name's and path's lengths then matter no more: nothing matches.)
     */
    private boolean decidesNothing(int s) {
        return s == VALUE ? field == NONE : s == NAME ? candidates == 0 : s == TARGET && (match != 0 || candidates == 0);
    }

    /** Where, from {@code i} up to {@code end}, the first byte is that {@link #step} must see in state {@code s}. */
    private static int skip(ByteBuffer in, int s, int i, int end) {
        if (s == VALUE) {
            while (i < end) {
                int b = in.get(i) & 0xFF;
                if (b < SP ? b != HT : b == 0x7F) break; // CR, LF, or a control byte: step decides
                i++;
            }
        } else if (s == NAME) {
            while (i < end && TCHAR[in.get(i) & 0xFF]) i++;
        } else {
            while (i < end) {
                int b = in.get(i) & 0xFF;
                if (b <= SP || b >= 0x7F) break; // the SP before the version, or a byte no target may hold
                i++;
            }
        }
        return i;
    }

    /**
     * One byte of the head. Returns the next state, or a negated result when the byte ends the
     * request or is an error (then {@link #state} has been set already).
     */
    private int step(int s, int b) {
        switch (s) {
            case START:
                if (b == CR || b == LF) return START; // RFC 9112 2.2: ignore empty lines before a request
                if (!TCHAR[b]) return -fail(BAD_REQUEST);
                resetFacts();
                match = b;
                length = 1;
                return METHOD;
            case METHOD:
                if (b == SP) {
                    method = length == 3 && match == GET_BYTES ? GET
                            : length == 4 && match == HEAD_BYTES ? HEAD : OTHER_METHOD;
                    length = 0;
                    match = 0;
                    candidates = ALL_TARGETS;
                    return TARGET;
                }
                if (!TCHAR[b]) return -fail(BAD_REQUEST);
                match = length < 4 ? match << 8 | b : 0; // longer than HEAD: some other method
                length++;
                return METHOD;
            case TARGET:
                if (b == SP) {
                    if (length == 0 && match == 0) return -fail(BAD_REQUEST);
                    if (match == 0) target = matched(TARGETS, candidates, length);
                    match = 0;
                    return VERSION;
                }
                if (b <= SP || b >= 0x7F) return -fail(BAD_REQUEST);
                if (match != 0) return TARGET; // in the query, which no target looks at
                if (b == '?') {
                    target = matched(TARGETS, candidates, length);
                    match = 1;
                    return TARGET;
                }
                if (candidates != 0) candidates = narrowExactly(TARGETS, candidates, length, b);
                length++;
                return TARGET;
            case VERSION:
                if (match < VERSION_PREFIX.length) {
                    if (b != VERSION_PREFIX[match]) return -fail(BAD_REQUEST);
                    match++;
                    return VERSION;
                }
                if (match == VERSION_PREFIX.length) {
                    if (b < '0' || b > '9') return -fail(BAD_REQUEST);
                    http10 = b == '0';
                    match++;
                    return VERSION;
                }
                if (b == CR) return LINE_LF;
                if (b == LF) return FIELD_START;
                return -fail(BAD_REQUEST);
            case LINE_LF:
            case VALUE_LF:
                if (b != LF) return -fail(BAD_REQUEST);
                return s == VALUE_LF ? endField() : FIELD_START;
            case FIELD_START:
                if (b == CR) return HEAD_LF;
                if (b == LF) return endHead();
                if (!TCHAR[b]) return -fail(BAD_REQUEST); // includes SP/HT: obsolete line folding
                candidates = narrow(NAMES, ALL_NAMES, 0, b);
                length = 1;
                return NAME;
            case NAME:
                if (b == ':') return startValue();
                if (!TCHAR[b]) return -fail(BAD_REQUEST); // includes SP before the colon
                if (candidates != 0) candidates = narrow(NAMES, candidates, length, b);
                length++;
                return NAME;
            case VALUE:
                return value(b);
            case HEAD_LF:
                if (b != LF) return -fail(BAD_REQUEST);
                return endHead();
            default:
                throw new IllegalStateException("parser state " + s); // unreachable: BODY and DEAD are handled in parse()
        }
    }

    private int startValue() {
        field = matched(NAMES, candidates, length);
        if (field == TRANSFER_ENCODING) return -fail(BAD_REQUEST);
        value = 0;
        length = 0;
        valueEnded = false;
        candidates = ALL_TOKENS;
        return VALUE;
    }

    private int value(int b) {
        if (b == CR) return VALUE_LF;
        if (b == LF) return endField();
        if ((b < SP && b != HT) || b == 0x7F) return -fail(BAD_REQUEST);
        if (field == CONTENT_LENGTH) {
            if (b >= '0' && b <= '9') {
                if (valueEnded || ++length > MAX_LENGTH_DIGITS) return -fail(BAD_REQUEST);
                value = value * 10 + (b - '0');
            } else if (b == SP || b == HT) {
                valueEnded = length > 0; // leading whitespace is allowed, inner is not
            } else {
                return -fail(BAD_REQUEST);
            }
        } else if (field == CONNECTION) {
            if (b == ',' || b == SP || b == HT) {
                endToken();
            } else {
                if (candidates != 0) candidates = narrow(CONNECTION_TOKENS, candidates, length, b);
                length++;
            }
        }
        return VALUE;
    }

    private void endToken() {
        int t = length == 0 ? NONE : matched(CONNECTION_TOKENS, candidates, length);
        if (t == 0) sawClose = true;
        if (t == 1) sawKeepAlive = true;
        length = 0;
        candidates = ALL_TOKENS;
    }

    private int endField() {
        if (field == CONNECTION) {
            endToken();
        } else if (field == CONTENT_LENGTH) {
            // An empty value, or a second one that disagrees, leaves the body's end unknown.
            if (length == 0 || (contentLength >= 0 && contentLength != value)) return -fail(BAD_REQUEST);
            contentLength = value;
        }
        field = NONE;
        return FIELD_START;
    }

    private int endHead() {
        if (contentLength > 0) {
            bodyLeft = contentLength;
            return BODY;
        }
        return -complete();
    }

    /** Forgets everything, ready for a new connection's first request. */
    public void reset() {
        state = START;
        headBytes = 0;
        bodyLeft = 0;
        resetFacts();
    }

    /** The request is over: keep its facts for the caller and get ready for the next one. */
    private int complete() {
        state = START;
        headBytes = 0;
        if (work != null) work.request(); // --work-ns: a calibrated cost per request
        return REQUEST;
    }

    private int fail(int result) {
        state = DEAD;
        return result;
    }

    /** Before a new request's facts are gathered: forget the last one's. */
    private void resetFacts() {
        method = 0;
        target = NONE;
        http10 = false;
        sawClose = false;
        sawKeepAlive = false;
        contentLength = -1;
    }

    /** Drops the candidates whose byte at {@code index} is not {@code b}, ignoring ASCII case. */
    private static int narrow(byte[][] words, int candidates, int index, int b) {
        return narrowExactly(words, candidates, index, b | 0x20); // folds A-Z onto a-z; no other byte that reaches here folds onto a letter or '-'
    }

    /** {@link #narrow} for paths: byte for byte, case counts. Visits only the words still in the running. */
    private static int narrowExactly(byte[][] words, int candidates, int index, int b) {
        for (int left = candidates; left != 0; left &= left - 1) {
            int k = Integer.numberOfTrailingZeros(left);
            if (index >= words[k].length || words[k][index] != b) candidates &= ~(1 << k);
        }
        return candidates;
    }

    /** The word all {@code length} bytes matched, or NONE. */
    private static int matched(byte[][] words, int candidates, int length) {
        for (int k = 0; k < words.length; k++) {
            if ((candidates & (1 << k)) != 0 && words[k].length == length) return k;
        }
        return NONE;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** {@link #GET}, {@link #HEAD} or {@link #OTHER_METHOD}. */
    public int method() {
        return method;
    }

    /** The target was {@code /ping}, with or without a query. */
    public boolean isPing() {
        return target == PING;
    }

    /** The target was {@code /healthz}, with or without a query. */
    public boolean isHealthz() {
        return target == HEALTHZ;
    }

    public boolean isHttp10() {
        return http10;
    }

    /** HTTP/1.1 keeps the connection unless {@code Connection: close}; HTTP/1.0 only with {@code keep-alive}. */
    public boolean keepAlive() {
        return http10 ? sawKeepAlive && !sawClose : !sawClose;
    }
}
