package niolab.server.proto;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The /healthz side of the HTTP code: where a batch stops for the backend, and the responses it gets. */
class HealthzTest {
    private static final String GET = "GET /healthz HTTP/1.1\r\n\r\n";

    @Test
    void withoutABackendHealthzIsAnUnknownPath() {
        assertThat(PingDriver.run(GET + "GET /healthz?full=1 HTTP/1.1\r\n\r\n").output())
                .isEqualTo(PingDriver.NOT_FOUND + PingDriver.NOT_FOUND);
    }

    @Test
    void aBatchStopsAfterTheHealthzAndRepeatsBackendUntilItIsAnswered() {
        ByteBuffer in = ascii("GET /ping HTTP/1.1\r\n\r\n" + GET + "GET /ping HTTP/1.1\r\n\r\n");
        ByteBuffer out = ByteBuffer.allocate(4096);
        HttpConnection conn = new HttpConnection();
        assertThat(HttpPing.process(in, out, conn, true)).isEqualTo(HttpPing.BACKEND);
        assertThat(text(out)).isEqualTo(PingDriver.OK);
        assertThat(in.remaining()).as("the /ping behind it, unread").isEqualTo(22);
        assertThat(conn.awaitsBackend()).isTrue();
        assertThat(HttpPing.process(in, out, conn, true)).as("asked again before the answer").isEqualTo(HttpPing.BACKEND);

        assertThat(Healthz.write(out, conn, values("0.1.0", null))).isZero();
        assertThat(conn.awaitsBackend()).isFalse();
        assertThat(HttpPing.process(in, out, conn, true)).isZero();
        assertThat(text(out)).isEqualTo("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 47\r\n\r\n"
                + "{\"status\":\"ok\",\"release\":\"0.1.0\",\"region\":null}" + PingDriver.OK);
    }

    @Test
    void theQueryIsIgnoredAndOnlyGetAndHeadAskTheBackend() {
        for (String target : new String[] {"/healthz", "/healthz?x=1", "/healthz?"}) {
            HttpConnection conn = new HttpConnection();
            assertThat(HttpPing.process(ascii("GET " + target + " HTTP/1.1\r\n\r\n"), ByteBuffer.allocate(512), conn, true))
                    .as(target).isEqualTo(HttpPing.BACKEND);
        }
        for (String target : new String[] {"/healthzz", "/health", "/Healthz", "/healthz/x"}) {
            ByteBuffer out = ByteBuffer.allocate(512);
            assertThat(HttpPing.process(ascii("GET " + target + " HTTP/1.1\r\n\r\n"), out, new HttpConnection(), true)).as(target).isZero();
            assertThat(text(out)).as(target).isEqualTo(PingDriver.NOT_FOUND);
        }
        ByteBuffer out = ByteBuffer.allocate(512);
        assertThat(HttpPing.process(ascii("POST /healthz HTTP/1.1\r\n\r\n"), out, new HttpConnection(), true)).isZero();
        assertThat(text(out)).isEqualTo(PingDriver.NOT_ALLOWED);
    }

    @Test
    void headAndConnectionStylesShapeTheAnswer() {
        assertThat(answer("HEAD /healthz HTTP/1.1\r\n\r\n", values("a", "b"), 0))
                .isEqualTo("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 42\r\n\r\n");
        assertThat(answer("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", values("a", "b"), HttpPing.CLOSE))
                .isEqualTo("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 42\r\nConnection: close\r\n\r\n"
                        + "{\"status\":\"ok\",\"release\":\"a\",\"region\":\"b\"}");
        assertThat(answer("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", new Healthz.Answer().failed(503), 0))
                .isEqualTo("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 24\r\n"
                        + "Connection: keep-alive\r\n\r\n{\"status\":\"unavailable\"}");
        assertThat(answer(GET, new Healthz.Answer().failed(504), 0))
                .isEqualTo("HTTP/1.1 504 Gateway Timeout\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{\"status\":\"timeout\"}");
    }

    @Test
    void valuesAreEscapedAsJsonStringsAndTheLengthCountsTheEscapes() {
        String body = body(answer(GET, values("q\"b\\c\u0001\n", "ü"), 0));
        assertThat(body).isEqualTo("{\"status\":\"ok\",\"release\":\"q\\\"b\\\\c\\u0001\\u000a\",\"region\":\"ü\"}");
    }

    @Test
    void aValueOverTheLimitIs503() {
        String big = "x".repeat(Healthz.MAX_VALUE_BYTES + 1);
        assertThat(answer(GET, values(big, "b"), 0)).startsWith("HTTP/1.1 503 ");
        String longest = "\u0001".repeat(Healthz.MAX_VALUE_BYTES);
        ByteBuffer out = ByteBuffer.allocate(Healthz.MAX_RESPONSE_BYTES);
        HttpConnection conn = new HttpConnection();
        HttpPing.process(ascii("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"), out, conn, true);
        Healthz.write(out, conn, values(longest, longest));
        assertThat(out.position()).as("the longest answer fits MAX_RESPONSE_BYTES").isLessThanOrEqualTo(Healthz.MAX_RESPONSE_BYTES);
    }

    /** The response to the one request in {@code request}, answered with {@code answer}; checks the flags. */
    private static String answer(String request, Healthz.Answer answer, int flags) {
        ByteBuffer out = ByteBuffer.allocate(4096);
        HttpConnection conn = new HttpConnection();
        assertThat(HttpPing.process(ascii(request), out, conn, true)).isEqualTo(HttpPing.BACKEND);
        assertThat(Healthz.write(out, conn, answer)).isEqualTo(flags);
        String text = text(out);
        if (text.contains("\r\n\r\n{")) {
            int length = Integer.parseInt(text.replaceAll("(?s).*Content-Length: (\\d+).*", "$1"));
            assertThat(body(text).getBytes(StandardCharsets.UTF_8)).as("Content-Length").hasSize(length);
        }
        return text;
    }

    /** Two values as a backend hands them over: ranges of one buffer (null: a missing key). */
    private static Healthz.Answer values(String release, String region) {
        byte[] a = release == null ? new byte[0] : release.getBytes(StandardCharsets.UTF_8);
        byte[] b = region == null ? new byte[0] : region.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buf = ByteBuffer.allocate(a.length + b.length + 3);
        buf.put((byte) '#').put(a).put((byte) '#').put(b);
        return new Healthz.Answer().ok(buf, 1, release == null ? -1 : a.length, 2 + a.length, region == null ? -1 : b.length);
    }

    private static String body(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** What {@code out} holds, as text; clears it. */
    private static String text(ByteBuffer out) {
        out.flip();
        byte[] b = new byte[out.remaining()];
        out.get(b);
        out.clear();
        return new String(b, StandardCharsets.UTF_8);
    }
}
