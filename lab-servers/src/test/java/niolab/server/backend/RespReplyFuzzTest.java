package niolab.server.backend;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import niolab.server.proto.Healthz;

/**
 * Coverage-guided fuzzing of the RESP reply reader, which reads what a Redis (or anything
 * listening where Redis should be) sends back. Its contract: one of its four results; a value
 * or an error lies inside the bytes given, a value no longer than {@link Healthz#MAX_VALUE_BYTES};
 * it waits for more only while the reply so far is short (512 bytes), so a peer cannot make it
 * wait forever; the buffer is never moved; and what a server writes is read back unchanged.
 */
class RespReplyFuzzTest {
    /** The longest prefix the reader may wait on: its longest line. */
    private static final int MAX_WAIT = 512;

    @FuzzTest
    void anyBytes(byte[] input) {
        ByteBuffer buf = ByteBuffer.wrap(input);
        RespReply reply = new RespReply();
        int from = 0;
        while (true) {
            int r = reply.read(buf, from, input.length);
            assertThat(buf.position()).as("the buffer is not moved").isZero();
            if (r == RespReply.NEED_MORE) {
                assertThat(input.length - from).as("bytes waited on").isLessThanOrEqualTo(MAX_WAIT);
                return;
            }
            if (r == RespReply.MALFORMED) return;
            assertThat(r).isIn(RespReply.VALUE, RespReply.ERROR);
            assertThat(reply.end).as("the reply lies in the bytes given").isGreaterThan(from).isLessThanOrEqualTo(input.length);
            if (r == RespReply.VALUE && reply.length >= 0) {
                assertThat(reply.length).isLessThanOrEqualTo(Healthz.MAX_VALUE_BYTES);
                assertThat(reply.start).isGreaterThan(from);
                assertThat(reply.start + reply.length).isLessThan(reply.end);
            }
            from = reply.end;
        }
    }

    @FuzzTest
    void writtenRepliesAreReadBack(FuzzedDataProvider data) {
        int n = data.consumeInt(1, 6);
        byte[][] values = new byte[n][];
        boolean[] errors = new boolean[n];
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
            switch (data.consumeInt(0, 2)) {
                case 0 -> values[i] = null; // $-1: no such key
                case 1 -> values[i] = data.consumeBytes(Healthz.MAX_VALUE_BYTES);
                default -> {
                    errors[i] = true;
                    values[i] = data.consumeAsciiString(100).replaceAll("[\r\n]", "").getBytes(StandardCharsets.US_ASCII);
                }
            }
            if (errors[i]) {
                wire.writeBytes(ascii("-"));
                wire.writeBytes(values[i]);
            } else if (values[i] == null) {
                wire.writeBytes(ascii("$-1"));
            } else {
                wire.writeBytes(ascii("$" + values[i].length + "\r\n"));
                wire.writeBytes(values[i]);
            }
            wire.writeBytes(ascii("\r\n"));
        }
        byte[] bytes = wire.toByteArray();
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        RespReply reply = new RespReply();
        int from = 0;
        for (int i = 0; i < n; i++) {
            for (int cut = from; cut < bytes.length; cut += 1 + cut % 7) { // prefixes of the rest: never a wrong answer
                int r = reply.read(buf, from, cut);
                if (r != RespReply.NEED_MORE) {
                    assertThat(r).as("reply %d cut at %d", i, cut).isIn(RespReply.VALUE, RespReply.ERROR);
                    assertThat(reply.end).isLessThanOrEqualTo(cut);
                }
            }
            int r = reply.read(buf, from, bytes.length);
            if (errors[i]) {
                assertThat(r).as("reply %d", i).isEqualTo(RespReply.ERROR);
            } else {
                assertThat(r).as("reply %d", i).isEqualTo(RespReply.VALUE);
                if (values[i] == null) {
                    assertThat(reply.length).isEqualTo(-1);
                } else {
                    assertThat(Arrays.copyOfRange(bytes, reply.start, reply.start + reply.length)).isEqualTo(values[i]);
                }
            }
            from = reply.end;
        }
        assertThat(from).as("every byte read").isEqualTo(bytes.length);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
