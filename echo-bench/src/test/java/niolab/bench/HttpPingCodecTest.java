package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** {@code --protocol http}: the codec on crafted bytes, then every load mode against real sockets. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpPingCodecTest {
    /** The lab servers' response, byte for byte. */
    private static final String LAB = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"status\":\"ok\"}";
    /** Netty's style: lower-case names, another order, keep-alive said explicitly. */
    private static final String OTHER = "HTTP/1.1 200 OK\r\ncontent-length: 15\r\nconnection: keep-alive\r\ncontent-type: application/json\r\n\r\n{\"status\":\"ok\"}";

    private final HttpPingCodec codec = new HttpPingCodec("127.0.0.1:9988", true);

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void requestsAreGetPingWithConnectionCloseOnlyForShortConnections() {
        ByteBuffer out = ByteBuffer.allocate(codec.requestLength());
        codec.encodeRequest(out);
        assertThat(new String(out.array(), StandardCharsets.US_ASCII)).isEqualTo("GET /ping HTTP/1.1\r\nHost: 127.0.0.1:9988\r\n\r\n");
        HttpPingCodec shortCodec = new HttpPingCodec("h", false);
        out = ByteBuffer.allocate(shortCodec.requestLength());
        shortCodec.encodeRequest(out);
        assertThat(new String(out.array(), StandardCharsets.US_ASCII)).isEqualTo("GET /ping HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
    }

    @Test
    void pipelinedResponsesSplitAtEveryByteAreFramedByContentLength() {
        String two = LAB + OTHER;
        for (int cut = 0; cut <= two.length(); cut++) {
            ByteBuffer in = bytes(two);
            in.limit(cut);
            int decoded = 0;
            int r;
            while ((r = codec.decodeResponse(in)) > 0) decoded++;
            assertThat(r).as("cut at %d", cut).isEqualTo(Codec.NEED_MORE);
            assertThat(decoded).as("cut at %d", cut).isEqualTo(cut < LAB.length() ? 0 : cut < two.length() ? 1 : 2);
            in.limit(two.length());
            while (codec.decodeResponse(in) > 0) decoded++;
            assertThat(decoded).isEqualTo(2);
            assertThat(in.hasRemaining()).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n{\"status\":\"no\"}",
            "HTTP/1.1 200 OK\r\nContent-Length: 16\r\n\r\n{\"status\":\"ok\"} ",
            "HTTP/1.1 200 OK\r\n\r\n{\"status\":\"ok\"}",
            "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n{\"status\":\"ok\"}",
            "SSH-2.0-OpenSSH\r\n\r\n"})
    void wrongResponsesAreMismatches(String response) {
        assertThat(codec.decodeResponse(bytes(response))).isEqualTo(Codec.MISMATCH);
    }

    @Test
    void aHeadThatNeverEndsIsAMismatchNotAnEndlessWait() {
        assertThat(codec.decodeResponse(bytes("HTTP/1.1 200 OK\r\nX: " + "a".repeat(5000)))).isEqualTo(Codec.MISMATCH);
    }

    private final StringWriter out = new StringWriter();

    private int run(String... args) {
        out.getBuffer().setLength(0);
        CommandLine cl = EchoBench.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(out, true));
        return cl.execute(args);
    }

    @ParameterizedTest
    @ValueSource(strings = {"serial", "short", "keepalive", "pipeline"})
    void everyModeCountsEveryPing(String mode) throws Exception {
        String[] m = switch (mode) {
            case "serial" -> new String[] {};
            case "short" -> new String[] {"-c", "4", "--threads", "2"};
            case "keepalive" -> new String[] {"-c", "4", "--threads", "2", "--keepalive"};
            default -> new String[] {"-c", "3", "--threads", "2", "--pipeline", "16"};
        };
        try (TestHttpServer server = new TestHttpServer(TestHttpServer.Mode.PING)) {
            String[] args = new String[m.length + 5];
            System.arraycopy(m, 0, args, 0, m.length);
            System.arraycopy(new String[] {"--protocol", "http", "--requests", "400", server.hostPort()}, 0, args, m.length, 5);
            assertThat(run(args)).as(out.toString()).isZero();
        }
        assertThat(out.toString()).contains("HTTP GET /ping").doesNotContain("errors:");
    }

    @ParameterizedTest
    @EnumSource(value = TestHttpServer.Mode.class, names = {"NOT_FOUND", "WRONG_BODY"})
    void aWrongStatusOrBodyIsAMismatch(TestHttpServer.Mode mode) throws Exception {
        try (TestHttpServer server = new TestHttpServer(mode)) {
            assertThat(run("--protocol", "http", "-c", "2", "--keepalive", "--requests", "10", server.hostPort())).isEqualTo(1);
        }
        assertThat(out.toString()).contains("errors:").contains("mismatch");
    }

    @Test
    void anotherPathAsksForItAndCountsAny200WithAFramedBody() {
        HttpPingCodec healthz = new HttpPingCodec("h", true, "/healthz");
        ByteBuffer out = ByteBuffer.allocate(healthz.requestLength());
        healthz.encodeRequest(out);
        assertThat(new String(out.array(), StandardCharsets.US_ASCII)).isEqualTo("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n");
        String ok = "HTTP/1.1 200 OK\r\nContent-Length: 24\r\n\r\n{\"status\":\"ok\",\"a\":null}";
        ByteBuffer in = bytes(ok + ok);
        assertThat(healthz.decodeResponse(in)).isEqualTo(ok.length());
        assertThat(healthz.decodeResponse(in)).isEqualTo(ok.length());
        assertThat(healthz.decodeResponse(bytes("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 2\r\n\r\n{}"))).isEqualTo(Codec.MISMATCH);
        assertThat(healthz.decodeResponse(bytes("HTTP/1.1 200 OK\r\nContent-Length: 4097\r\n\r\n"))).isEqualTo(Codec.MISMATCH);
        assertThat(healthz.decodeResponse(bytes(ok.substring(0, ok.length() - 1)))).isEqualTo(Codec.NEED_MORE);
    }

    @Test
    void aPathIsForHttpAndStartsWithASlash() {
        assertThat(run("--path", "/healthz")).isEqualTo(2);
        assertThat(out.toString()).contains("--path needs --protocol http");
        assertThat(run("--protocol", "http", "--path", "healthz")).isEqualTo(2);
        assertThat(out.toString()).contains("--path must start with /");
    }

    @Test
    void anUnknownProtocolIsABadFlag() {
        assertThat(run("--protocol", "ftp")).isEqualTo(2);
        assertThat(out.toString()).contains("--protocol must be echo or http");
    }
}
