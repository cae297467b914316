package niolab.server.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import niolab.server.proto.Healthz;
import org.junit.jupiter.api.Test;

class RespReplyTest {
    private final RespReply reply = new RespReply();

    @Test
    void aValueANullAndAnErrorAreReadWhereTheyLie() {
        ByteBuffer buf = ascii("$5\r\nhello\r\n$-1\r\n-ERR wrong type\r\n$0\r\n\r\n");
        assertThat(reply.read(buf, 0, buf.limit())).isEqualTo(RespReply.VALUE);
        assertThat(text(buf, reply.start, reply.length)).isEqualTo("hello");
        assertThat(reply.read(buf, reply.end, buf.limit())).isEqualTo(RespReply.VALUE);
        assertThat(reply.length).isEqualTo(-1);
        assertThat(reply.read(buf, reply.end, buf.limit())).isEqualTo(RespReply.ERROR);
        assertThat(reply.read(buf, reply.end, buf.limit())).isEqualTo(RespReply.VALUE);
        assertThat(reply.length).isZero();
        assertThat(reply.end).isEqualTo(buf.limit());
        assertThat(buf.position()).as("the buffer is not moved").isZero();
    }

    @Test
    void anyPrefixOfAReplyNeedsMore() {
        String whole = "$12\r\nhello\r\nworld\r\n";
        for (int cut = 0; cut < whole.length(); cut++) {
            ByteBuffer buf = ascii(whole.substring(0, cut));
            assertThat(reply.read(buf, 0, cut)).as("first %d bytes", cut).isEqualTo(RespReply.NEED_MORE);
        }
        ByteBuffer buf = ascii(whole);
        assertThat(reply.read(buf, 0, buf.limit())).isEqualTo(RespReply.VALUE);
        assertThat(text(buf, reply.start, reply.length)).isEqualTo("hello\r\nworld");
    }

    @Test
    void whatNoGetAnswersLooksLikeIsMalformed() {
        String[] bad = {"+OK\r\n", ":1\r\n", "*1\r\n$1\r\nx\r\n", "!what\r\n", "$x\r\n", "$-2\r\n", "$\r\n", "$3\r\nabcd\r\n",
            "$1\rx", "$" + (Healthz.MAX_VALUE_BYTES + 1) + "\r\n", "-" + "E".repeat(600)};
        for (String b : bad) {
            ByteBuffer buf = ascii(b);
            assertThat(reply.read(buf, 0, buf.limit())).as(b).isEqualTo(RespReply.MALFORMED);
        }
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static String text(ByteBuffer buf, int start, int length) {
        byte[] b = new byte[length];
        buf.get(start, b);
        return new String(b, StandardCharsets.US_ASCII);
    }
}
