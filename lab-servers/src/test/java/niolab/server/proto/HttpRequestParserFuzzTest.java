package niolab.server.proto;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Coverage-guided fuzzing of the HTTP request-head parser, the first code that reads a
 * stranger's bytes. Its contract: every call returns one of its four results and consumes its
 * input; the results and the facts of each request are the same whatever the read sizes; after
 * an error it swallows everything (the connection is closing); a request written by the rules
 * it states is read back with the facts it was written with, or refused with 431 when its head
 * is over {@link HttpRequestParser#MAX_HEAD_BYTES}.
 */
class HttpRequestParserFuzzTest {
    /** What the parser said of one request, or of an error. */
    private record Outcome(int result, int method, boolean ping, boolean healthz, boolean http10, boolean keepAlive) {
        static Outcome of(int result, HttpRequestParser p) {
            return result == HttpRequestParser.REQUEST
                    ? new Outcome(result, p.method(), p.isPing(), p.isHealthz(), p.isHttp10(), p.keepAlive())
                    : new Outcome(result, 0, false, false, false, false);
        }
    }

    @FuzzTest
    void anyBytesInAnyReadSizes(FuzzedDataProvider data) {
        int[] sizes = new int[data.consumeInt(0, 16)];
        for (int i = 0; i < sizes.length; i++) sizes[i] = data.consumeInt(1, 64);
        byte[] input = data.consumeRemainingAsBytes();
        List<Outcome> whole = feed(input, new int[0]);
        assertThat(feed(input, sizes)).as("read sizes change nothing").isEqualTo(whole);
    }

    @FuzzTest
    void aWrittenRequestIsReadBackWithItsFacts(FuzzedDataProvider data) {
        String eol = data.consumeBoolean() ? "\r\n" : "\n";
        int methodKind = data.consumeInt(0, 2);
        String method = methodKind == 0 ? "GET" : methodKind == 1 ? "HEAD" : "X" + token(data, 12);
        int targetKind = data.consumeInt(0, 3);
        String path = targetKind == 0 ? "/ping" : targetKind == 1 ? "/healthz" : "/" + token(data, 20);
        String target = targetKind == 3 ? path : path + (data.consumeBoolean() ? "?" + visible(data, 30) : "");
        boolean http10 = data.consumeBoolean();
        boolean close = false;
        boolean keepAlive = false;
        StringBuilder head = new StringBuilder();
        head.append("\r\n".repeat(data.consumeInt(0, 2))).append(method).append(' ').append(target)
                .append(http10 ? " HTTP/1.0" : " HTTP/1.1").append(eol);
        long bodyLength = 0;
        boolean lengthWritten = false;
        int headers = data.consumeInt(0, 8);
        for (int h = 0; h < headers; h++) {
            switch (data.consumeInt(0, 3)) {
                case 0 -> { // Connection: a token list
                    StringBuilder v = new StringBuilder();
                    int tokens = data.consumeInt(0, 3);
                    for (int t = 0; t < tokens; t++) {
                        String token = data.pickValue(new String[] {"close", "keep-alive", "Upgrade", "CLOSE", "Keep-Alive", "closed"});
                        close |= token.equalsIgnoreCase("close");
                        keepAlive |= token.equalsIgnoreCase("keep-alive");
                        v.append(t > 0 ? data.pickValue(new String[] {",", ", ", " ,"}) : "").append(token);
                    }
                    head.append(data.pickValue(new String[] {"Connection", "connection", "CONNECTION"})).append(':')
                            .append(" ".repeat(data.consumeInt(0, 2))).append(v).append(eol);
                }
                case 1 -> { // Content-Length: written once, the body follows the head
                    if (lengthWritten) break; // a second one, if it disagreed, would be refused
                    lengthWritten = true;
                    bodyLength = data.consumeInt(0, 300);
                    head.append("Content-Length: ").append(bodyLength).append(eol);
                }
                default -> head.append('X').append(token(data, 30)).append(':').append(' ').append(visible(data, 200)).append(eol);
            }
        }
        head.append(eol);
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] input = new byte[headBytes.length + (int) bodyLength];
        System.arraycopy(headBytes, 0, input, 0, headBytes.length);

        int[] sizes = new int[data.consumeInt(0, 8)];
        for (int i = 0; i < sizes.length; i++) sizes[i] = data.consumeInt(1, 200);
        List<Outcome> got = feed(input, sizes);

        if (headBytes.length > HttpRequestParser.MAX_HEAD_BYTES) { // empty lines before the request count too
            assertThat(got).as(head.toString()).containsExactly(Outcome.of(HttpRequestParser.HEAD_TOO_LARGE, null));
            return;
        }
        int m = methodKind == 0 ? HttpRequestParser.GET : methodKind == 1 ? HttpRequestParser.HEAD : HttpRequestParser.OTHER_METHOD;
        boolean kept = http10 ? keepAlive && !close : !close;
        assertThat(got).as(head.toString()).containsExactly(new Outcome(HttpRequestParser.REQUEST, m, path.equals("/ping"), path.equals("/healthz"),
                http10, kept));
    }

    /** Feeds {@code input} in reads of {@code sizes} (then the rest at once); the outcome of each request or error. */
    private static List<Outcome> feed(byte[] input, int[] sizes) {
        HttpRequestParser p = new HttpRequestParser(null);
        List<Outcome> outcomes = new ArrayList<>();
        boolean dead = false;
        int off = 0;
        for (int k = 0; off < input.length; k++) {
            int size = k < sizes.length ? Math.min(sizes[k], input.length - off) : input.length - off;
            ByteBuffer in = ByteBuffer.wrap(input, off, size);
            while (in.hasRemaining()) {
                int before = in.position();
                int r = p.parse(in);
                assertThat(r).as("a result of the four").isBetween(HttpRequestParser.NEED_MORE, HttpRequestParser.HEAD_TOO_LARGE);
                if (dead) {
                    assertThat(r).as("after an error: swallowed").isEqualTo(HttpRequestParser.NEED_MORE);
                    assertThat(in.hasRemaining()).isFalse();
                }
                if (r == HttpRequestParser.NEED_MORE) {
                    assertThat(in.hasRemaining()).as("NEED_MORE consumes the whole read").isFalse();
                } else {
                    assertThat(in.position()).as("a result consumes at least its last byte").isGreaterThan(before);
                    outcomes.add(Outcome.of(r, p));
                    dead = r != HttpRequestParser.REQUEST;
                }
            }
            off += size;
        }
        return outcomes;
    }

    /** A run of token characters, at least one. */
    private static String token(FuzzedDataProvider data, int max) {
        String s = data.consumeAsciiString(max).replaceAll("[^A-Za-z0-9!#$%&'*+.^_`|~-]", "");
        return s.isEmpty() ? "t" : s;
    }

    /** Visible characters a value or a query may hold, without a leading or trailing blank. */
    private static String visible(FuzzedDataProvider data, int max) {
        return data.consumeAsciiString(max).replaceAll("[^\\x21-\\x7e]", "");
    }
}
