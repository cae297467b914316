package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of what echo-bench reads from the server under test: the HTTP /ping
 * response parser and the echo checker. The {@link Codec} contract: {@code NEED_MORE} with the
 * position untouched, {@code MISMATCH}, or the length of one response with the position moved
 * past it, never more than {@link Codec#maxResponseLength()} (the read buffer's size, so a
 * server cannot make the client wait for more than it can hold); and every response a server
 * writes as the protocol says is counted, one by one, and each of its prefixes needs more.
 */
class ResponseCodecsFuzzTest {
    @FuzzTest
    void httpAnyBytes(FuzzedDataProvider data) {
        Codec codec = new HttpPingCodec("127.0.0.1", data.consumeBoolean(), data.consumeBoolean() ? "/ping" : "/healthz");
        decodeAll(codec, data.consumeRemainingAsBytes());
    }

    @FuzzTest
    void httpWrittenResponsesAreCounted(FuzzedDataProvider data) {
        boolean ping = data.consumeBoolean();
        Codec codec = new HttpPingCodec("127.0.0.1", true, ping ? "/ping" : "/healthz");
        int n = data.consumeInt(1, 4);
        StringBuilder wire = new StringBuilder();
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            String body = ping ? "{\"status\":\"ok\"}" : data.consumeAsciiString(4096);
            StringBuilder head = new StringBuilder(data.consumeBoolean() ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.0 200 Fine\r\n");
            int headers = data.consumeInt(0, 6);
            int lengthAt = data.consumeInt(0, headers);
            for (int h = 0; h <= headers; h++) {
                if (h == lengthAt) {
                    head.append(data.pickValue(new String[] {"Content-Length", "content-length", "CONTENT-LENGTH"})).append(':')
                            .append(" ".repeat(data.consumeInt(0, 2))).append(body.length()).append(" ".repeat(data.consumeInt(0, 1))).append("\r\n");
                } else {
                    head.append('X').append(data.consumeAsciiString(20).replaceAll("[^A-Za-z0-9-]", "")).append(": ")
                            .append(data.consumeAsciiString(200).replaceAll("[^\\x20-\\x7e]", "")).append("\r\n");
                }
            }
            head.append("\r\n");
            if (head.length() > 4096) return; // over the head a /ping response may have: not a response this codec is for
            wire.append(head).append(body);
            lengths[i] = head.length() + body.length();
        }
        byte[] bytes = wire.toString().getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        for (int i = 0; i < n; i++) {
            int start = in.position();
            for (int cut = start; cut < start + lengths[i]; cut += 1 + cut % 13) {
                ByteBuffer prefix = ByteBuffer.wrap(bytes, start, cut - start);
                assertThat(codec.decodeResponse(prefix)).as("response %d cut after %d bytes", i, cut - start).isEqualTo(Codec.NEED_MORE);
                assertThat(prefix.position()).isEqualTo(start);
            }
            assertThat(codec.decodeResponse(in)).as("response %d of %s", i, wire).isEqualTo(lengths[i]);
        }
        assertThat(in.hasRemaining()).isFalse();
    }

    @FuzzTest
    void echoAnyBytes(FuzzedDataProvider data) {
        byte[] payload = data.consumeBytes(data.consumeInt(1, 256));
        if (payload.length == 0) return;
        Codec codec = new EchoCodec(payload);
        byte[] got = data.consumeRemainingAsBytes();
        decodeAll(codec, got);

        // The echo of the payload is counted whatever follows it; a damaged one never is.
        ByteBuffer out = ByteBuffer.allocate(payload.length + got.length);
        codec.encodeRequest(out);
        out.put(got).flip();
        assertThat(codec.decodeResponse(out)).isEqualTo(payload.length);
        if (got.length >= payload.length) {
            boolean same = ByteBuffer.wrap(got, 0, payload.length).equals(ByteBuffer.wrap(payload));
            assertThat(codec.decodeResponse(ByteBuffer.wrap(got))).isEqualTo(same ? payload.length : Codec.MISMATCH);
        }
    }

    /** Decodes responses from {@code bytes} until it needs more or mismatches, checking the contract at each. */
    private static void decodeAll(Codec codec, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        while (true) {
            int before = in.position();
            int r = codec.decodeResponse(in);
            if (r == Codec.NEED_MORE) {
                assertThat(in.position()).as("NEED_MORE leaves the position").isEqualTo(before);
                assertThat(in.limit() - before).as("bytes waited on, at most a read buffer").isLessThanOrEqualTo(codec.maxResponseLength());
                return;
            }
            if (r == Codec.MISMATCH) return;
            assertThat(r).as("a response's length").isPositive().isLessThanOrEqualTo(codec.maxResponseLength());
            assertThat(in.position()).isEqualTo(before + r);
        }
    }
}
