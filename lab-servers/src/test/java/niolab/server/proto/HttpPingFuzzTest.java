package niolab.server.proto;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import niolab.server.proto.PingDriver.Result;
import org.junit.jupiter.api.Test;

/**
 * Seeded fuzzing of the parser and responder: random valid requests always get their answer,
 * and any input (mutated, truncated, random) gets only well-formed responses and never an
 * exception, whatever the read sizes and the output buffer size. A failure prints its seed.
 * The last test is the same contract under Jazzer's coverage guidance (docs/fuzzing.md).
 */
class HttpPingFuzzTest {
    private static final int CASES = 20_000;
    private static final String[] NOISE_HEADERS = {"Host", "User-Agent", "Accept", "X-Request-Id", "Cookie", "Content-Type"};
    private static final String[] KNOWN = {PingDriver.OK, PingDriver.OK_HEAD, PingDriver.OK_CLOSE, PingDriver.OK_KEEP,
        PingDriver.NOT_FOUND, PingDriver.NOT_ALLOWED, PingDriver.BAD, PingDriver.TOO_LARGE,
        PingDriver.OK_HEAD.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"),
        PingDriver.OK_HEAD.replace("\r\n\r\n", "\r\nConnection: keep-alive\r\n\r\n"),
        PingDriver.NOT_FOUND.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"),
        PingDriver.NOT_FOUND.replace("\r\n\r\n", "\r\nConnection: keep-alive\r\n\r\n"),
        PingDriver.NOT_ALLOWED.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"),
        PingDriver.NOT_ALLOWED.replace("\r\n\r\n", "\r\nConnection: keep-alive\r\n\r\n")};

    /** A valid request for /ping and the response it must get; keep-alive unless {@code close}. */
    private record Valid(String text, String response, boolean closes) {
    }

    private static Valid validRequest(SplittableRandom r) {
        boolean head = r.nextBoolean();
        boolean http10 = r.nextInt(4) == 0;
        StringBuilder b = new StringBuilder();
        if (r.nextInt(10) == 0) b.append("\r\n"); // an empty line before a request is allowed
        b.append(head ? "HEAD" : "GET").append(' ').append(r.nextBoolean() ? "/ping" : "/ping?n=" + r.nextInt(1000));
        b.append(http10 ? " HTTP/1.0" : " HTTP/1.1");
        String eol = r.nextInt(8) == 0 ? "\n" : "\r\n";
        b.append(eol);
        int connection = r.nextInt(4); // 0 none, 1 close, 2 keep-alive
        int headers = r.nextInt(6);
        for (int i = 0; i < headers; i++) {
            b.append(randomCase(NOISE_HEADERS[r.nextInt(NOISE_HEADERS.length)], r)).append(':');
            b.append(" ".repeat(r.nextInt(3))).append(token(r, 1 + r.nextInt(40))).append(" ".repeat(r.nextInt(2))).append(eol);
        }
        if (connection == 1) b.append(randomCase("Connection", r)).append(": ").append(randomCase("close", r)).append(eol);
        if (connection == 2) b.append(randomCase("Connection", r)).append(":").append(randomCase("keep-alive", r)).append(eol);
        int bodyLength = r.nextInt(4) == 0 ? r.nextInt(300) : -1;
        if (bodyLength >= 0) b.append(randomCase("Content-Length", r)).append(": ").append(bodyLength).append(eol);
        b.append(eol);
        if (bodyLength > 0) b.append(token(r, bodyLength));
        boolean close = connection == 1 || (http10 && connection != 2);
        String base = head ? PingDriver.OK_HEAD : PingDriver.OK;
        String conn = close ? "Connection: close\r\n" : http10 ? "Connection: keep-alive\r\n" : "";
        String response = base.replace("Content-Length: 15\r\n\r\n", "Content-Length: 15\r\n" + conn + "\r\n");
        return new Valid(b.toString(), response, close);
    }

    @Test
    void validPipelinedRequestsAlwaysGetTheirAnswersWhateverTheReadSizes() {
        for (int seed = 0; seed < CASES; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            StringBuilder in = new StringBuilder();
            StringBuilder expected = new StringBuilder();
            boolean closes = false;
            int n = 1 + r.nextInt(8);
            for (int i = 0; i < n && !closes; i++) {
                Valid v = validRequest(r);
                in.append(v.text());
                expected.append(v.response());
                closes = v.closes();
            }
            byte[] bytes = in.toString().getBytes(StandardCharsets.ISO_8859_1);
            int outCapacity = HttpPing.MAX_RESPONSE_BYTES + r.nextInt(600);
            Result got = PingDriver.run(bytes, PingDriver.randomSplits(bytes.length, r), outCapacity);
            assertThat(got).as("seed %d: %s", seed, in).isEqualTo(new Result(expected.toString(), closes));
        }
    }

    @Test
    void anyInputGetsOnlyWellFormedAnswersAndTheSameOnesWhateverTheReadSizes() {
        for (int seed = 0; seed < CASES; seed++) {
            SplittableRandom r = new SplittableRandom(seed * 31L + 7);
            byte[] bytes = mutated(r);
            Result whole;
            Result split;
            try {
                whole = PingDriver.run(bytes, new int[] {bytes.length}, 1 << 16);
                split = PingDriver.run(bytes, PingDriver.randomSplits(bytes.length, r), HttpPing.MAX_RESPONSE_BYTES + r.nextInt(300));
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + " threw on " + new String(bytes, StandardCharsets.ISO_8859_1), e);
            }
            assertThat(split).as("seed %d: read sizes change nothing", seed).isEqualTo(whole);
            assertOnlyKnownResponses(whole, "seed " + seed);
        }
    }

    /**
     * The same contract, coverage-guided (Jazzer): any bytes, in any read sizes and with any
     * output buffer the responder accepts, get only well-formed answers, the same ones.
     */
    @FuzzTest
    void anyBytesGetOnlyWellFormedAnswers(FuzzedDataProvider data) {
        int outCapacity = HttpPing.MAX_RESPONSE_BYTES + data.consumeInt(0, 600);
        int[] sizes = new int[data.consumeInt(0, 16)];
        for (int i = 0; i < sizes.length; i++) sizes[i] = data.consumeInt(1, 64);
        byte[] bytes = data.consumeRemainingAsBytes();
        int[] splits = new int[sizes.length + 1];
        int n = 0;
        int left = bytes.length;
        for (int size : sizes) {
            if (left == 0) break;
            splits[n++] = Math.min(size, left);
            left -= splits[n - 1];
        }
        splits[n++] = left;
        Result whole = PingDriver.run(bytes, new int[] {bytes.length}, 1 << 16);
        assertThat(PingDriver.run(bytes, java.util.Arrays.copyOf(splits, n), outCapacity)).as("read sizes change nothing").isEqualTo(whole);
        assertOnlyKnownResponses(whole, "fuzzed input");
    }

    /** {@code got} is a run of the responses the server knows; an error's answer comes last and closes. */
    private static void assertOnlyKnownResponses(Result got, String input) {
        String rest = got.output();
        while (!rest.isEmpty()) {
            String known = null;
            for (String k : KNOWN) {
                if (rest.startsWith(k) && (known == null || k.length() > known.length())) known = k; // HEAD's is a prefix of GET's
            }
            assertThat(known).as("%s: unknown response in %s", input, rest).isNotNull();
            rest = rest.substring(known.length());
        }
        if (got.output().endsWith(PingDriver.BAD) || got.output().endsWith(PingDriver.TOO_LARGE)) {
            assertThat(got.closed()).as("%s: errors close", input).isTrue();
        }
    }

    /** Valid requests with random damage, or plain random bytes. */
    private static byte[] mutated(SplittableRandom r) {
        if (r.nextInt(10) == 0) {
            byte[] junk = new byte[r.nextInt(200)];
            for (int i = 0; i < junk.length; i++) junk[i] = (byte) r.nextInt(256);
            return junk;
        }
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) b.append(validRequest(r).text());
        byte[] bytes = b.toString().getBytes(StandardCharsets.ISO_8859_1);
        int damage = 1 + r.nextInt(4);
        for (int d = 0; d < damage && bytes.length > 0; d++) {
            int at = r.nextInt(bytes.length);
            switch (r.nextInt(4)) {
                case 0 -> bytes[at] = (byte) r.nextInt(256);
                case 1 -> bytes[at] = (byte) " \r\n:\t,/?0".charAt(r.nextInt(9));
                case 2 -> bytes = java.util.Arrays.copyOf(bytes, at); // truncated
                default -> {
                    byte[] longer = new byte[bytes.length + 1];
                    System.arraycopy(bytes, 0, longer, 0, at);
                    longer[at] = (byte) r.nextInt(256);
                    System.arraycopy(bytes, at, longer, at + 1, bytes.length - at);
                    bytes = longer;
                }
            }
        }
        return bytes;
    }

    private static String token(SplittableRandom r, int length) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~";
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) b.append(alphabet.charAt(r.nextInt(alphabet.length())));
        return b.toString();
    }

    private static String randomCase(String s, SplittableRandom r) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) b.append(r.nextBoolean() ? Character.toUpperCase(c) : Character.toLowerCase(c));
        return b.toString();
    }
}
