package niolab.server;

import static niolab.server.testing.Http.ascii;
import static niolab.server.testing.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.FakeRedis;
import niolab.server.testing.Http;
import niolab.server.testing.Http.Response;
import niolab.server.testing.RedisServer;
import niolab.server.testing.ServerProcess;
import niolab.server.testing.ServerUnderTest;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * {@code GET /healthz} with a real Redis behind it, written once; each architecture and
 * posture runs it through a subclass naming them ({@code lt}, {@code loop}). One redis-server
 * and one lab server per class, both stopped after. Then what it does when Redis fails: down
 * (503 at once, one line, 200 again when it is back), paused (504, and {@code /ping} still
 * answered), talking nonsense (503 for its requests, the server serving on); each of these
 * tests leaves Redis up and seeded. The subclass's command names the posture
 * ({@code lt --backend-mode pool}).
 */
public abstract class BackendContractTest extends ServerContractTest {
    static final String SEEDED = "{\"status\":\"ok\",\"release\":\"0.1.0\",\"region\":\"local\"}";
    private static final long RECOVERY_MS = 20_000;

    protected RedisServer redis;

    @Override
    protected final List<String> suiteOptions() {
        return List.of("--protocol", "http");
    }

    @Override
    protected ServerProcess startSharedServer() throws Exception {
        redis = RedisServer.start();
        return startServer("--backend", redis.uri());
    }

    @Override
    protected void stopSharedServer() throws Exception {
        super.stopSharedServer();
        if (redis != null) redis.close();
    }

    static void assertSeeded(Response r) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).isEqualTo("application/json");
        assertThat(r.body()).isEqualTo(SEEDED);
        assertThat(r.header("Content-Length")).isEqualTo(Integer.toString(SEEDED.length()));
    }

    @Test
    void readyLineNamesThePosture() {
        ServerUnderTest sut = serverUnderTest();
        assertThat(server.label()).isEqualTo(sut.label() + ", http, backend " + sut.option("--backend-mode"));
    }

    @Test
    void healthzAnswersFromBothSeededKeysRequestAfterRequest() throws Exception {
        try (Socket s = Echo.connect(server.address())) {
            for (int i = 0; i < 200; i++) {
                s.getOutputStream().write(ascii(get("/healthz")));
                assertSeeded(Http.read(s.getInputStream()));
            }
        }
    }

    @Test
    void aMissingKeyIsNullAndStill200() throws Exception {
        try (Jedis j = redis.client(); Socket s = Echo.connect(server.address())) {
            j.del("niolab:region");
            j.set("niolab:release", "a \"quoted\"\\ value\t");
            s.getOutputStream().write(ascii(get("/healthz")));
            Response r = Http.read(s.getInputStream());
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"status\":\"ok\",\"release\":\"a \\\"quoted\\\"\\\\ value\\u0009\",\"region\":null}");
            j.set("niolab:release", "0.1.0");
            j.set("niolab:region", "local");
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderAroundTheWaitingOnes() throws Exception {
        String[] kinds = {get("/healthz"), get("/ping"), "HEAD /healthz HTTP/1.1\r\n\r\n", get("/nope"), "DELETE /healthz HTTP/1.1\r\n\r\n"};
        int[] statuses = {200, 200, 200, 404, 405};
        StringBuilder batch = new StringBuilder();
        for (int i = 0; i < 60; i++) batch.append(kinds[i * 3 % kinds.length]);
        try (Socket s = Echo.connect(server.address())) {
            s.getOutputStream().write(ascii(batch.toString()));
            InputStream in = s.getInputStream();
            for (int i = 0; i < 60; i++) {
                int k = i * 3 % kinds.length;
                Response r = Http.read(in, k == 2);
                assertThat(r.status()).as("response %d", i).isEqualTo(statuses[k]);
                if (k == 0) assertSeeded(r);
                if (k == 1) assertThat(r.body()).isEqualTo("{\"status\":\"ok\"}");
                if (k == 2) assertThat(r.header("Content-Length")).isEqualTo(Integer.toString(SEEDED.length()));
            }
            s.getOutputStream().write(ascii("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n" + get("/ping")));
            Response last = Http.read(in);
            assertSeeded(last);
            assertThat(last.header("Connection")).isEqualTo("close");
            assertThat(in.read()).as("closed after Connection: close; the /ping behind it is dropped").isEqualTo(-1);
        }
    }

    @Test
    void manyConnectionsAtOnceAllGetTheirOwnAnswers() throws Exception {
        List<CompletableFuture<Integer>> clients = new ArrayList<>();
        for (int c = 0; c < 20; c++) {
            clients.add(CompletableFuture.supplyAsync(() -> {
                try (Socket s = Echo.connect(server.address())) {
                    OutputStream out = s.getOutputStream();
                    int ok = 0;
                    for (int i = 0; i < 25; i++) {
                        out.write(ascii(get("/healthz") + get("/ping") + get("/healthz")));
                        Response a = Http.read(s.getInputStream());
                        Response b = Http.read(s.getInputStream());
                        Response c2 = Http.read(s.getInputStream());
                        if (a.body().equals(SEEDED) && b.body().equals("{\"status\":\"ok\"}") && c2.body().equals(SEEDED)) ok++;
                    }
                    return ok;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (CompletableFuture<Integer> f : clients) assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(25);
    }

    @Test
    void redisDownIs503AtOnceWithOneLineThen200WhenItIsBack() throws Exception {
        String down = "redis 127.0.0.1:" + redis.port + " failed";
        int linesBefore = count(server.output(), down);
        redis.stop();
        try {
            // The first request may be the one that finds the connection gone; all are 503.
            for (int i = 0; i < 20; i++) assertThat(healthz(server.address()).status()).as("request %d", i).isEqualTo(503);
            assertThat(ping(server.address()).status()).isEqualTo(200);
            // The line is the server's stderr, read by another thread: wait for it, bounded.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (count(server.output(), down) == linesBefore && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(count(server.output(), down) - linesBefore).as("log lines for this outage").isEqualTo(1);
        } finally {
            redis.restart();
        }
        Response back = awaitStatus(server.address(), 200);
        assertThat(back.body()).as("a Redis restarted empty").isEqualTo("{\"status\":\"ok\",\"release\":null,\"region\":null}");
        reseed();
    }

    @Test
    void redisPausedIs504ForHealthzWhilePingIsStillAnswered() throws Exception {
        awaitStatus(server.address(), 200);
        redis.pause();
        try (Socket waiting = Echo.connect(server.address())) {
            waiting.getOutputStream().write(ascii(get("/healthz")));
            CompletableFuture<Response> answer = CompletableFuture.supplyAsync(() -> read(waiting));
            assertThat(ping(server.address()).status()).as("/ping while /healthz waits").isEqualTo(200);
            assertThat(answer.get(30, TimeUnit.SECONDS).status()).isEqualTo(504);
        } finally {
            redis.resume();
        }
        assertThat(awaitStatus(server.address(), 200).body()).isEqualTo(SEEDED);
    }

    @Test
    void aMalformedReplyIs503ForItsRequestsAndTheServerServesOn() throws Exception {
        try (FakeRedis fake = new FakeRedis(); ServerProcess p = startServer("--backend", fake.uri())) {
            try (Socket s = Echo.connect(p.address())) {
                for (int i = 0; i < 3; i++) {
                    s.getOutputStream().write(ascii(get("/healthz") + get("/ping")));
                    assertThat(Http.read(s.getInputStream()).status()).isEqualTo(503);
                    assertThat(Http.read(s.getInputStream()).status()).isEqualTo(200);
                }
            }
            fake.behave();
            assertThat(awaitStatus(p.address(), 200).body()).isEqualTo("{\"status\":\"ok\",\"release\":\"ok\",\"region\":\"ok\"}");
        }
    }

    private void reseed() {
        try (Jedis j = redis.client()) {
            j.set("niolab:release", "0.1.0");
            j.set("niolab:region", "local");
        }
    }

    /** /healthz on fresh connections until one answers {@code status} (bounded). */
    private static Response awaitStatus(InetSocketAddress address, int status) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECOVERY_MS);
        Response r = healthz(address);
        while (r.status() != status && System.nanoTime() < deadline) {
            Thread.sleep(100);
            r = healthz(address);
        }
        assertThat(r.status()).as("/healthz within %d ms", RECOVERY_MS).isEqualTo(status);
        return r;
    }

    private static Response healthz(InetSocketAddress address) throws Exception {
        return request(address, "/healthz");
    }

    private static Response ping(InetSocketAddress address) throws Exception {
        return request(address, "/ping");
    }

    private static Response request(InetSocketAddress address, String path) throws Exception {
        try (Socket s = Echo.connect(address)) {
            s.getOutputStream().write(ascii(get(path)));
            return Http.read(s.getInputStream());
        }
    }

    private static Response read(Socket s) {
        try {
            return Http.read(s.getInputStream());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int count(String text, String line) {
        int n = 0;
        for (int i = text.indexOf(line); i >= 0; i = text.indexOf(line, i + 1)) n++;
        return n;
    }
}
