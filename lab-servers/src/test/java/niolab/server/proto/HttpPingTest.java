package niolab.server.proto;

import static niolab.server.proto.PingDriver.BAD;
import static niolab.server.proto.PingDriver.NOT_ALLOWED;
import static niolab.server.proto.PingDriver.NOT_FOUND;
import static niolab.server.proto.PingDriver.OK;
import static niolab.server.proto.PingDriver.OK_CLOSE;
import static niolab.server.proto.PingDriver.OK_HEAD;
import static niolab.server.proto.PingDriver.OK_KEEP;
import static niolab.server.proto.PingDriver.TOO_LARGE;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import niolab.server.proto.PingDriver.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpPingTest {
    private static final String GET = "GET /ping HTTP/1.1\r\nHost: x\r\n\r\n";

    @Test
    void getPingIsOkAndKeepsTheConnection() {
        assertThat(PingDriver.run(GET)).isEqualTo(new Result(OK, false));
        assertThat(PingDriver.run("GET /ping HTTP/1.1\r\n\r\n")).isEqualTo(new Result(OK, false));
        assertThat(PingDriver.run("GET /ping?x=1 HTTP/1.1\n\n")).as("bare LF, query").isEqualTo(new Result(OK, false));
    }

    @Test
    void keepAliveFollowsTheVersionAndTheConnectionHeader() {
        assertThat(PingDriver.run("GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n" + GET)).isEqualTo(new Result(OK_CLOSE, true));
        assertThat(PingDriver.run("GET /ping HTTP/1.1\r\ncOnNeCtIoN: Upgrade , CLOSE\r\n\r\n")).isEqualTo(new Result(OK_CLOSE, true));
        assertThat(PingDriver.run("GET /ping HTTP/1.1\r\nConnection: closed\r\n\r\n")).isEqualTo(new Result(OK, false));
        assertThat(PingDriver.run("GET /ping HTTP/1.0\r\n\r\n")).isEqualTo(new Result(OK_CLOSE, true));
        assertThat(PingDriver.run("GET /ping HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")).isEqualTo(new Result(OK_KEEP, false));
        assertThat(PingDriver.run("GET /ping HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n")).isEqualTo(new Result(OK_CLOSE, true));
    }

    @Test
    void headGetsNoBodyOtherMethods405OtherPaths404() {
        assertThat(PingDriver.run("HEAD /ping HTTP/1.1\r\n\r\n")).isEqualTo(new Result(OK_HEAD, false));
        assertThat(PingDriver.run("POST /ping HTTP/1.1\r\n\r\n")).isEqualTo(new Result(NOT_ALLOWED, false));
        assertThat(PingDriver.run("GETS /ping HTTP/1.1\r\n\r\n")).isEqualTo(new Result(NOT_ALLOWED, false));
        assertThat(PingDriver.run("get /ping HTTP/1.1\r\n\r\n")).as("methods are case-sensitive").isEqualTo(new Result(NOT_ALLOWED, false));
        assertThat(PingDriver.run("HEADER /ping HTTP/1.1\r\n\r\n")).isEqualTo(new Result(NOT_ALLOWED, false));
        for (String path : new String[] {"/", "/pin", "/pingx", "/PING", "/ping/", "*", "http://h/ping"}) {
            assertThat(PingDriver.run("GET " + path + " HTTP/1.1\r\n\r\n")).as(path).isEqualTo(new Result(NOT_FOUND, false));
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() {
        String in = GET + "GET /x HTTP/1.1\r\n\r\n" + "\r\n" + "HEAD /ping HTTP/1.1\r\n\r\n" + "PUT /ping HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello" + GET;
        assertThat(PingDriver.run(in)).isEqualTo(new Result(OK + NOT_FOUND + OK_HEAD + NOT_ALLOWED + OK, false));
    }

    @Test
    void contentLengthBodyIsSkippedEvenWhenItLooksLikeARequest() {
        String body = "GET /nope HTTP/1.1\r\n\r\n";
        String in = "GET /ping HTTP/1.1\r\nContent-Length:  " + body.length() + " \r\n\r\n" + body + GET;
        assertThat(PingDriver.run(in)).isEqualTo(new Result(OK + OK, false));
        assertThat(PingDriver.run("GET /ping HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n")).isEqualTo(new Result(OK, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "GET /ping\r\n\r\n", "GET  /ping HTTP/1.1\r\n\r\n", "GET /ping HTTP/1.1 \r\n\r\n", "GET /ping HTTP/2.0\r\n\r\n",
        "GET /ping HTTP/1.\r\n\r\n", "GET /ping HTTP/1.1\rX\r\n\r\n", " GET /ping HTTP/1.1\r\n\r\n", "G(T /ping HTTP/1.1\r\n\r\n",
        "GET /pi\u0001ng HTTP/1.1\r\n\r\n", "GET /ping HTTP/1.1\r\nHost : x\r\n\r\n", "GET /ping HTTP/1.1\r\n: x\r\n\r\n",
        "GET /ping HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", "GET /ping HTTP/1.1\r\nX: a\u0000b\r\n\r\n",
        "GET /ping HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "GET /ping HTTP/1.1\r\ntransfer-encoding: identity\r\n\r\n",
        "GET /ping HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "GET /ping HTTP/1.1\r\nContent-Length:\r\n\r\n",
        "GET /ping HTTP/1.1\r\nContent-Length: 1 2\r\n\r\n", "GET /ping HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "GET /ping HTTP/1.1\r\nContent-Length: 9999999999999999999\r\n\r\n", "GET /ping HTTP/1.1\r\n\r\r\n",
    })
    void malformedRequestsGet400AndClose(String request) {
        assertThat(PingDriver.run(request)).isEqualTo(new Result(BAD, true));
        assertThat(PingDriver.run(GET + request + GET)).as("after a good one").isEqualTo(new Result(OK + BAD, true));
    }

    @Test
    void headOver8KiBGets431ButExactly8KiBIsFine() {
        String start = "GET /ping HTTP/1.1\r\nX: ";
        int fill = HttpRequestParser.MAX_HEAD_BYTES - start.length() - 4;
        assertThat(PingDriver.run(start + "a".repeat(fill) + "\r\n\r\n")).isEqualTo(new Result(OK, false));
        assertThat(PingDriver.run(start + "a".repeat(fill + 1) + "\r\n\r\n")).isEqualTo(new Result(TOO_LARGE, true));
        assertThat(PingDriver.run("GET /" + "p".repeat(10_000))).as("no need to wait for the end").isEqualTo(new Result(TOO_LARGE, true));
        assertThat(PingDriver.run("\r\n".repeat(5000))).as("empty lines count too").isEqualTo(new Result(TOO_LARGE, true));
    }

    @Test
    void everySplitPointAndATinyOutputBufferGiveTheSameAnswer() {
        String in = GET + "HEAD /ping HTTP/1.0\r\nConnection: keep-alive\r\n\r\n" + "POST /ping HTTP/1.1\r\nContent-Length: 7\r\n\r\n1234567"
                + "GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n" + GET;
        byte[] bytes = in.getBytes(StandardCharsets.US_ASCII);
        Result whole = PingDriver.run(in);
        assertThat(whole.closed()).isTrue();
        for (int cut = 1; cut < bytes.length; cut++) {
            assertThat(PingDriver.run(bytes, new int[] {cut, bytes.length - cut}, HttpPing.MAX_RESPONSE_BYTES)).as("cut at %d", cut).isEqualTo(whole);
        }
        int[] ones = new int[bytes.length];
        java.util.Arrays.fill(ones, 1);
        assertThat(PingDriver.run(bytes, ones, HttpPing.MAX_RESPONSE_BYTES)).isEqualTo(whole);
    }

    @Test
    void answeringRequestsAllocatesNothing() {
        byte[] batch = (GET + "HEAD /ping HTTP/1.1\r\nConnection: keep-alive\r\n\r\n" + "GET /nope HTTP/1.1\r\n\r\n").repeat(10)
                .getBytes(StandardCharsets.US_ASCII);
        java.nio.ByteBuffer in = java.nio.ByteBuffer.allocateDirect(batch.length);
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocateDirect(65536);
        HttpConnection conn = new HttpConnection();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = 0;
        for (int round = 0; round < 40_000; round++) {
            if (round == 20_000) before = threads.getCurrentThreadAllocatedBytes(); // after JIT warm-up
            in.clear();
            in.put(batch).flip();
            out.clear();
            if (HttpPing.process(in, out, conn) != 0) throw new AssertionError("unexpected flags"); // not assertThat: it allocates
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated answering 600k requests").isLessThan(64 * 1024);
    }
}
