package niolab.server;

import static niolab.server.testing.Http.ascii;
import static niolab.server.testing.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import niolab.common.CountersLine;
import niolab.server.base.Counters;
import niolab.server.testing.ClosingExchange;
import niolab.server.testing.ClosingExchange.Outcome;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.Http.Response;
import niolab.server.testing.Proc;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP /ping contract every architecture keeps in {@code --protocol http}, written once;
 * each architecture runs it through a subclass that says how to start its server.
 */
public abstract class HttpContractTest extends ServerContractTest {
    @Override
    protected final List<String> suiteOptions() {
        return List.of("--protocol", "http");
    }

    private static void assertPing(Response r) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).isEqualTo("application/json");
        assertThat(r.header("Content-Length")).isEqualTo("15");
        assertThat(r.body()).isEqualTo("{\"status\":\"ok\"}");
    }

    private static void assertClosed(InputStream in) throws Exception {
        assertThat(in.read()).as("the server closes the connection").isEqualTo(-1);
    }

    @Test
    void readyLineSaysHttp() {
        assertThat(server.label()).endsWith(", http");
    }

    @Test
    void keepAliveAnswersManyRequestsOnOneConnection() throws Exception {
        try (Socket s = Echo.connect(address)) {
            for (int i = 0; i < 2000; i++) {
                s.getOutputStream().write(ascii(get("/ping")));
                Response r = Http.read(s.getInputStream());
                assertPing(r);
                assertThat(r.header("Connection")).isNull();
            }
        }
    }

    @Test
    void hundredPipelinedRequestsInOneWriteAreAnsweredInOrder() throws Exception {
        String[] kinds = {get("/ping"), get("/nope"), "HEAD /ping HTTP/1.1\r\n\r\n", "DELETE /ping HTTP/1.1\r\n\r\n"};
        int[] statuses = {200, 404, 200, 405};
        StringBuilder batch = new StringBuilder();
        for (int i = 0; i < 100; i++) batch.append(kinds[i * 7 % 4]);
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii(batch.toString()));
            for (int i = 0; i < 100; i++) {
                int k = i * 7 % 4;
                Response r = Http.read(s.getInputStream(), k == 2);
                assertThat(r.status()).as("response %d", i).isEqualTo(statuses[k]);
                if (k == 0) assertPing(r);
            }
            s.getOutputStream().write(ascii(get("/ping")));
            assertPing(Http.read(s.getInputStream()));
        }
    }

    @Test
    void thousandsOfPipelinedRequestsFromAClientThatReadsLateAllGetAnswered() throws Exception {
        // ~1 MB of requests written before reading anything: the server must stop reading while
        // its responses wait (backpressure), park the rest, and lose nothing.
        int n = 50_000;
        byte[] one = ascii(get("/ping"));
        try (Socket s = Echo.connect(address)) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    for (int i = 0; i < n; i += 500) {
                        byte[] chunk = new byte[one.length * 500];
                        for (int j = 0; j < 500; j++) System.arraycopy(one, 0, chunk, j * one.length, one.length);
                        out.write(chunk);
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(300);
            InputStream in = new java.io.BufferedInputStream(s.getInputStream());
            for (int i = 0; i < n; i++) assertPing(Http.read(in));
            Echo.await(writer);
        }
    }

    @Test
    void requestSentOneByteAtATimeIsAnswered() throws Exception {
        try (Socket s = Echo.connect(address)) {
            s.setTcpNoDelay(true);
            for (int round = 0; round < 2; round++) {
                for (byte b : ascii("GET /ping HTTP/1.1\r\nHost: bytewise\r\nContent-Length: 3\r\n\r\nabc")) {
                    s.getOutputStream().write(b);
                    s.getOutputStream().flush();
                    Thread.sleep(1);
                }
                assertPing(Http.read(s.getInputStream()));
            }
        }
    }

    @Test
    void connectionCloseIsHonoured() throws Exception {
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii("GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n" + get("/ping")));
            Response r = Http.read(s.getInputStream());
            assertPing(r);
            assertThat(r.header("Connection")).isEqualTo("close");
            assertClosed(s.getInputStream()); // the pipelined request after it is not answered
        }
    }

    @Test
    void http10ClosesUnlessKeepAliveIsAsked() throws Exception {
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii("GET /ping HTTP/1.0\r\n\r\n"));
            assertPing(Http.read(s.getInputStream()));
            assertClosed(s.getInputStream());
        }
        try (Socket s = Echo.connect(address)) {
            for (int i = 0; i < 3; i++) {
                s.getOutputStream().write(ascii("GET /ping HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"));
                Response r = Http.read(s.getInputStream());
                assertPing(r);
                assertThat(r.header("Connection")).isEqualToIgnoringCase("keep-alive");
            }
        }
    }

    @Test
    void headAnswersTheHeadersWithoutTheBody() throws Exception {
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii("HEAD /ping HTTP/1.1\r\n\r\n" + get("/ping")));
            Response r = Http.read(s.getInputStream(), true);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Length")).isEqualTo("15");
            assertPing(Http.read(s.getInputStream())); // no stray body bytes came before it
        }
    }

    @Test
    void malformedRequestGets400AndClose() throws Exception {
        for (String bad : new String[] {"GET /ping\r\n\r\n", "GET /ping HTTP/1.1\r\nNo colon here\r\n\r\n",
                "GET /ping HTTP/1.1\r\n folded: x\r\n\r\n", "G@T /ping HTTP/1.1\r\n\r\n",
                "GET /ping HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "GET /ping HTTP/1.1\r\nContent-Length: 1x\r\n\r\n"}) {
            try (Socket s = Echo.connect(address)) {
                s.getOutputStream().write(ascii(bad));
                Response r = Http.read(s.getInputStream());
                assertThat(r.status()).as(bad).isEqualTo(400);
                assertThat(r.header("Connection")).isEqualTo("close");
                assertClosed(s.getInputStream());
            }
        }
    }

    @Test
    void unknownPathGets404AndOtherMethodsGet405OnAKeptConnection() throws Exception {
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii(get("/pong") + get("/pingx") + "POST /ping HTTP/1.1\r\nContent-Length: 0\r\n\r\n"
                    + get("/ping?verbose=1")));
            assertThat(Http.read(s.getInputStream()).status()).isEqualTo(404);
            assertThat(Http.read(s.getInputStream()).status()).isEqualTo(404);
            Response r = Http.read(s.getInputStream());
            assertThat(r.status()).isEqualTo(405);
            assertThat(r.header("Allow")).isEqualTo("GET, HEAD");
            assertPing(Http.read(s.getInputStream()));
        }
    }

    @Test
    void headersOver8KiBGet431AndClose() throws Exception {
        try (Socket s = Echo.connect(address)) {
            String big = "GET /ping HTTP/1.1\r\nX-Big: " + "a".repeat(9000) + "\r\n\r\n";
            s.getOutputStream().write(ascii(big));
            Response r = Http.read(s.getInputStream());
            assertThat(r.status()).isEqualTo(431);
            assertClosed(s.getInputStream());
        }
    }

    @Test
    void contentLengthBodyIsReadAndDiscardedAcrossWrites() throws Exception {
        String body = (get("/ping") + "x".repeat(1000)).repeat(50); // a body that looks like requests
        try (Socket s = Echo.connect(address)) {
            s.setTcpNoDelay(true);
            OutputStream out = s.getOutputStream();
            out.write(ascii("POST /ping HTTP/1.1\r\nContent-Length: " + body.length() + "\r\n\r\n" + body.substring(0, 100)));
            out.flush();
            Thread.sleep(20);
            out.write(ascii(body.substring(100) + get("/ping")));
            assertThat(Http.read(s.getInputStream()).status()).isEqualTo(405);
            assertPing(Http.read(s.getInputStream()));
        }
    }

    /**
     * RFC 9112 9.6: a closing answer reaches the client whole, then end of stream, however much
     * the client sent after the request that closed. A server that closes on unread bytes makes
     * its kernel send a reset, and the reset makes the client's kernel drop the answer unread.
     */
    @ParameterizedTest(name = "{0}-byte head, read {1}")
    @CsvSource({"9000, after the write", "9000, during the write", "20000, after the write", "20000, during the write",
            "300000, after the write", "300000, during the write", "1000000, after the write", "1000000, during the write"})
    void oversizeHeadSentInOneWriteGets431ThenEndOfStream(int size, String reading) throws Exception {
        expectClosingAnswer(ClosingExchange.run(address, ClosingExchange.oversizeHead(size), reading.startsWith("during")), 431);
    }

    @ParameterizedTest(name = "read during the write: {0}")
    @ValueSource(booleans = {false, true})
    void garbageFollowedByAMegabyteGets400ThenEndOfStream(boolean concurrently) throws Exception {
        expectClosingAnswer(ClosingExchange.run(address, ClosingExchange.garbageThen(1_000_000), concurrently), 400);
    }

    /** The whole answer with {@code status}, then end of stream (never a reset); or, where the server does not linger (netty-http), what came. */
    private void expectClosingAnswer(ClosingExchange.Result r, int status) {
        if (!serverUnderTest().lingers()) {
            System.out.printf("%s does not linger: %s%n", serverUnderTest().name(), r);
            assertThat(r.outcome()).as("what came where a reset may eat the answer").isNotEqualTo(Outcome.TIMEOUT);
            return;
        }
        assertThat(r.outcome()).as("%s", r).isEqualTo(Outcome.ANSWER_THEN_EOF);
        assertThat(r.status()).isEqualTo(status);
        assertThat(r.writer()).as("the server read everything the client sent").isNull();
    }

    /**
     * A client that never stops sending after its 400 is cut off at the bounds: one that floods
     * at {@code --linger-bytes}, one that trickles at {@code --linger-time}. Both get the whole
     * answer and end of stream first; another connection is served meanwhile; the server does
     * not spin: its waits and reads over the whole run stay in the hundreds, where a loop that
     * spun through a one-second linger would count hundreds of thousands (its CPU share is
     * printed; a fresh JVM's compiler makes a bound on it too loose to catch anything). Its own
     * server, with small bounds.
     */
    @Test
    void aClientThatNeverStopsSendingIsCutOffAtTheBoundsWhileOthersAreServed() throws Exception {
        try (ServerProcess bounded = startServer("--linger-time", "1s", "--linger-bytes", "262144")) {
            InetSocketAddress at = bounded.address();
            List<Long> pids = Proc.tree(bounded);
            try (Socket flood = Echo.connect(at); Socket trickle = Echo.connect(at); Socket other = Echo.connect(at)) {
                CompletableFuture<String> flooding = sendForever(flood, 64 * 1024, 0);
                CompletableFuture<String> trickling = sendForever(trickle, 100, 10);
                for (Socket s : List.of(flood, trickle)) expectClosingAnswer(ClosingExchange.read(s.getInputStream()), 400);
                double cpu0 = Proc.cpuSeconds(pids);
                long t0 = System.nanoTime();
                for (int i = 0; i < 50; i++) {
                    other.getOutputStream().write(ascii(get("/ping")));
                    assertPing(Http.read(other.getInputStream()));
                }
                assertThat(flooding.get(Echo.TIMEOUT_MS, TimeUnit.MILLISECONDS)).as("the flood is cut off").isNotNull();
                assertThat(trickling.get(Echo.TIMEOUT_MS, TimeUnit.MILLISECONDS)).as("the trickle is cut off").isNotNull();
                System.out.printf("%s: CPU while two clients linger and another is served: %.0f%% of one core%n", serverUnderTest().name(),
                        100 * (Proc.cpuSeconds(pids) - cpu0) / ((System.nanoTime() - t0) / 1e9));
                other.getOutputStream().write(ascii(get("/ping")));
                assertPing(Http.read(other.getInputStream()));
            }
            if (serverUnderTest().lingers()) { // a peer that does not linger has no linger counters
                bounded.terminate(30);
                assertThat(Proc.counter(bounded, "linger_timeouts")).as(bounded.output()).isGreaterThanOrEqualTo(2);
                assertThat(Proc.counter(bounded, "linger_bytes")).as(bounded.output()).isGreaterThanOrEqualTo(262144);
                long calls = 0;
                for (Map.Entry<String, Long> e : CountersLine.parse(CountersLine.last(bounded.output())).entrySet()) {
                    if (Counters.WAIT_NAMES.contains(e.getKey()) || e.getKey().equals("reads")) calls += e.getValue();
                }
                assertThat(calls).as("waits and reads in all: %s", bounded.output()).isLessThan(100_000);
            }
        }
    }

    /**
     * Sends a malformed request, then {@code chunk} bytes after each {@code pauseMs} for ever,
     * until a write fails: returns what stopped it, or null if nothing did within the bound.
     */
    private static CompletableFuture<String> sendForever(Socket s, int chunk, long pauseMs) {
        return CompletableFuture.supplyAsync(() -> {
            byte[] bytes = new byte[chunk];
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Echo.TIMEOUT_MS);
            try {
                OutputStream out = s.getOutputStream();
                out.write(ascii("G@RBAGE / HTTP/1.1\r\n\r\n"));
                while (System.nanoTime() < deadline) {
                    out.write(bytes);
                    if (pauseMs > 0) Thread.sleep(pauseMs); // the trickle's pace, not a wait for something
                }
                return null;
            } catch (IOException e) {
                return e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }, r -> {
            Thread t = new Thread(r, "never-stops-sending");
            t.setDaemon(true);
            t.start();
        });
    }

    /**
     * A black-box mutation fuzz of the running server: a few valid requests, then one damaged
     * (a byte changed, a CR, LF, space or colon put in, cut short), then the client's FIN. Every
     * valid request is answered, in order; then the damaged one is answered or refused with a
     * status, or, cut short, dropped at end of stream; every answer is whole, none follows a
     * refusal; the server closes; and after them all it is back to the descriptors it held,
     * serves a fresh request and has logged no stack trace. Seeded: a failure names its input.
     */
    @Test
    void mutatedRequestsAreAnsweredOrRefusedWithAStatusAndNothingIsLeftBehind() throws Exception {
        List<Long> pids = Proc.tree(server);
        long baseline = Proc.fds(pids);
        for (int seed = 0; seed < MUTATIONS; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            int valid = r.nextInt(4);
            String input = get("/ping").repeat(valid) + mutated(r);
            try (Socket s = Echo.connect(address)) {
                s.setSoTimeout(Echo.TIMEOUT_MS);
                s.getOutputStream().write(input.getBytes(StandardCharsets.ISO_8859_1));
                s.shutdownOutput();
                List<Integer> statuses = new ArrayList<>();
                String end = readAnswers(s.getInputStream(), statuses);
                String as = String.format("seed %d: %s -> %s, then %s", seed, input.replace("\r", "\\r").replace("\n", "\\n"), statuses, end);
                if (!end.equals("end of stream")) {
                    // A server that closes at once after a refusal (netty-http) may have its unread input turn the close into a reset.
                    assertThat(serverUnderTest().lingers()).as(as).isFalse();
                    assertThat(end).as(as).startsWith("reset");
                    continue;
                }
                assertThat(statuses.size()).as(as).isGreaterThanOrEqualTo(valid);
                for (int i = 0; i < valid; i++) assertThat(statuses.get(i)).as(as).isEqualTo(200);
                for (int i = 0; i < statuses.size() - 1; i++) {
                    assertThat(statuses.get(i)).as("%s: an answer after a refusal", as).isNotIn(400, 431);
                }
            }
        }
        assertThat(Proc.awaitFdsAtMost(pids, baseline + 2, 20_000)).as("descriptors held by the server").isLessThanOrEqualTo(baseline + 2);
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii(get("/ping")));
            assertPing(Http.read(s.getInputStream()));
        }
        assertCleanLog(server);
    }

    /** Seeds of the mutation fuzz: about a second on the lab's servers. */
    private static final int MUTATIONS = 300;

    /** A GET or HEAD-less request with a few headers, then one to four damages. */
    private static String mutated(SplittableRandom r) {
        StringBuilder b = new StringBuilder("GET /ping").append(r.nextBoolean() ? "" : "?n=" + r.nextInt(100)).append(" HTTP/1.1\r\nHost: test\r\n");
        if (r.nextInt(3) == 0) b.append("Connection: ").append(r.nextBoolean() ? "close" : "keep-alive").append("\r\n");
        if (r.nextInt(3) == 0) b.append("Content-Length: 3\r\n\r\nabc");
        else b.append("\r\n");
        for (int d = 1 + r.nextInt(4); d > 0 && b.length() > 0; d--) {
            int at = r.nextInt(b.length());
            switch (r.nextInt(4)) {
                case 0 -> b.setCharAt(at, (char) r.nextInt(256));
                case 1 -> b.insert(at, " \r\n:\t".charAt(r.nextInt(5)));
                case 2 -> b.setLength(at); // cut short
                default -> b.deleteCharAt(at);
            }
        }
        return b.toString();
    }

    /**
     * Reads answers until the server ends the stream, each {@code HTTP/1.x NNN ...} head then its
     * Content-Length body, noting each status; returns how the stream ended ("end of stream", or
     * "reset ..."); an answer cut short or not HTTP fails the test.
     */
    private static String readAnswers(InputStream in, List<Integer> statuses) throws IOException {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        String end = "end of stream";
        try {
            for (int n; (n = in.read(buf)) >= 0; ) all.write(buf, 0, n);
        } catch (java.net.SocketException e) {
            end = "reset (" + e.getMessage() + ")";
        }
        String text = all.toString(StandardCharsets.ISO_8859_1);
        int at = 0;
        while (at < text.length()) {
            int headEnd = text.indexOf("\r\n\r\n", at);
            assertThat(headEnd).as("a whole head in: %s", text.substring(at)).isPositive();
            String head = text.substring(at, headEnd);
            assertThat(head).as("a status line").matches("(?s)HTTP/1\\.[01] [1-5][0-9][0-9] [^\r\n]*(\r\n[^\r\n]+)*");
            statuses.add(Integer.parseInt(head.substring(9, 12)));
            java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?im)^content-length: *([0-9]+)\r?$").matcher(head);
            int body = length.find() ? Integer.parseInt(length.group(1)) : 0;
            at = headEnd + 4 + body;
            assertThat(at).as("a whole body in: %s", text).isLessThanOrEqualTo(text.length());
        }
        return end;
    }

    @Test
    void pipelinedRequestsThenHalfCloseAreAllAnsweredThenClosed() throws Exception {
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii(get("/ping").repeat(10)));
            s.shutdownOutput();
            for (int i = 0; i < 10; i++) assertPing(Http.read(s.getInputStream()));
            assertClosed(s.getInputStream());
        }
    }
}
