package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code echo-bench compare} against in-process servers: verdicts, the design's order, bad input, a server that dies. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CompareTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The header says the order is random only when the shuffle draws more than one order: the stub's fixed order is not. */
    @Test
    void theHeaderCallsTheOrderRandomOnlyWhenTheShuffleDrawsOne() {
        assertThat(Compare.describeOrder((visit, random) -> {
            for (int i = 0; i < visit.length; i++) visit[i] = i;
        })).contains("the same order").doesNotContain("random");
        // a random rotation draws only n of the n! orders, and still more than one
        assertThat(Compare.describeOrder((visit, random) -> {
            int shift = random.nextInt(visit.length);
            for (int i = 0; i < visit.length; i++) visit[i] = (i + shift) % visit.length;
        })).isEqualTo("each round in a fresh random order");
    }

    /**
     * A server that sleeps before each answer is called slower, and its interval excludes 1 ± 2%.
     * A short warm-up first: a cold client's first slices on a busy machine served a few hundred
     * requests where the fast server serves thousands, and two such rounds spanned 1. A slice may
     * still serve nothing, and an unpaired round is left out. Twelve rounds, not eight: in the
     * busy suite the fast server's slices ranged from 210 to 19,044 requests/s, and with eight
     * rounds the median's interval reached its starved rounds (0.070 [0.039, 3.471]).
     */
    @Test
    void aServerSlowedOnPurposeIsCalledSlower(@TempDir Path dir) throws Exception {
        try (TestEchoServer fast = new TestEchoServer(TestEchoServer.Mode.ECHO);
                TestEchoServer slow = new TestEchoServer(TestEchoServer.Mode.SLOW)) {
            Path json = dir.resolve("cmp.json");
            Cli run = Cli.run("compare", "--rounds", "12", "--slice", "300ms", "--warmup", "500ms", "--seed", "7", "-c", "2", "-k",
                    "--json", json.toString(), "fast=" + fast.hostPort(), "slow=" + slow.hostPort());
            assertThat(run.code()).as(run.out() + run.err()).isZero();
            assertThat(run.err()).isEmpty();
            assertThat(run.out()).contains("seed 7: --seed 7 repeats it").contains("against fast:");
            assertThat(run.out()).containsPattern("slow +rate +0\\.\\d+ \\[0\\.\\d+, 0\\.\\d+\\]  slower by [0-9.]+% \\[[0-9.]+%, [0-9.]+%\\] "
                    + "\\(threshold ±2\\.0%\\); detects .* with 90% power \\((?:[6-9]|1[0-2]) rounds\\)");
            JsonNode rate = JSON.readTree(json.toFile()).at("/summary/comparisons/0/rate");
            assertThat(rate.get("high").asDouble()).isLessThan(1.0);
            assertThat(rate.get("direction").asText()).isEqualTo("below");
            assertThat(rate.get("words").asText()).startsWith("slower by ");
            assertThat(rate.get("verdict").asText()).isEqualTo("below");
            assertThat(rate.get("threshold").asDouble()).as("the default threshold").isEqualTo(0.02);
        }
    }

    /**
     * Two identical servers under the same --rate, slow enough that a warm client is never 10 ms
     * behind its schedule: a slice serves exactly its 30 scheduled requests, so the rates are
     * equal by design, the median per-round ratio is 1 and the verdict is "the same" (a
     * round or two with a request dropped at a slice's end by a stalled client cannot move a
     * median of ten). On a busy machine a slice can serve nothing; its round is unpaired and left
     * out, so the verdict may rest on fewer than ten rounds.
     */
    @Test
    void identicalServersAtTheSameRateShowNoDifference(@TempDir Path dir) throws Exception {
        try (TestEchoServer a = new TestEchoServer(TestEchoServer.Mode.ECHO); TestEchoServer b = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            Path json = dir.resolve("aa.json");
            Cli run = Cli.run("compare", "--rounds", "10", "--slice", "300ms", "--warmup", "300ms", "-c", "1", "-k", "--rate", "100",
                    "--json", json.toString(), "a=" + a.hostPort(), "b=" + b.hostPort());
            assertThat(run.code()).as(run.out() + run.err()).isZero();
            assertThat(run.out()).containsPattern("\\nb +rate +1\\.000 \\[[0-9.]+, [0-9.]+\\]  (the same within ±2\\.0%: \\[[-+0-9.]+%, [-+0-9.]+%\\]|undecided at this precision \\(±[0-9.]+%\\)) \\(threshold ±2\\.0%\\); detects .* \\((?:[6-9]|10) rounds\\)");
            JsonNode rate = JSON.readTree(json.toFile()).at("/summary/comparisons/0/rate");
            assertThat(rate.get("estimate").asDouble()).isEqualTo(1.0);
            assertThat(rate.get("direction").asText()).isEqualTo("none");
            assertThat(rate.get("verdict").asText()).isIn("same", "undecided");
        }
    }

    /**
     * Every round visits every server once, in an order drawn from the seed; the same seed repeats
     * it. Here and in the deaths below the load is a modest --rate: what is tested is the order and
     * the naming, and a closed loop would spin both cores for nothing.
     */
    @Test
    void eachRoundVisitsEveryServerOnceInTheSeedsOrder(@TempDir Path dir) throws Exception {
        try (TestEchoServer a = new TestEchoServer(TestEchoServer.Mode.ECHO); TestEchoServer b = new TestEchoServer(TestEchoServer.Mode.ECHO);
                TestEchoServer c = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            List<List<String>> orders = new ArrayList<>();
            for (String name : new String[] {"one.json", "two.json"}) {
                Path json = dir.resolve(name);
                Cli run = Cli.run("compare", "--rounds", "8", "--slice", "100ms", "--warmup", "0", "--seed", "12345", "-c", "1", "-k", "--rate", "200",
                        "--json", json.toString(), "a=" + a.hostPort(), "b=" + b.hostPort(), "c=" + c.hostPort());
                assertThat(run.code()).as(run.out() + run.err()).isZero();
                Map<Integer, List<String>> rounds = new HashMap<>();
                List<String> order = new ArrayList<>();
                for (JsonNode s : JSON.readTree(json.toFile()).get("slices")) {
                    rounds.computeIfAbsent(s.get("round").asInt(), r -> new ArrayList<>()).add(s.get("server").asText());
                    order.add(s.get("server").asText());
                }
                assertThat(rounds).hasSize(8);
                for (List<String> round : rounds.values()) assertThat(round).containsExactlyInAnyOrder("a", "b", "c");
                orders.add(order);
            }
            assertThat(orders.get(1)).isEqualTo(orders.get(0));
            assertThat(new java.util.HashSet<>(chunks(orders.get(0), 3))).as("8 rounds drawn at random are not all alike").hasSizeGreaterThan(1);
        }
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        String[][] cases = {
            {"compare", "a=127.0.0.1:1", "a=127.0.0.1:2"},
            {"compare", "127.0.0.1:1"},
            {"compare", "a=127.0.0.1:99999"},
            {"compare", "a=127.0.0.1:1,pd=3"},
            {"compare", "--rounds", "1", "a=127.0.0.1:1"},
            {"compare", "--slice", "10ms", "a=127.0.0.1:1"},
            {"compare", "--load", "ab", "a=127.0.0.1:1"},
            {"compare", "--load", "wrk", "a=127.0.0.1:1"},
            {"compare", "-c", "0", "a=127.0.0.1:1"},
            {"compare", "--rounds", "many", "a=127.0.0.1:1"},
            {"compare", "--no-such-flag", "a=127.0.0.1:1"},
            {"compare"},
        };
        for (String[] args : cases) {
            Cli run = Cli.run(args);
            assertThat(run.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.err()).as(String.join(" ", args)).startsWith("error: ").hasLineCount(1);
            assertThat(run.out()).isEmpty();
        }
        assertThat(Cli.run("compare", "a=127.0.0.1:1", "a=127.0.0.1:2").err()).isEqualTo("error: server name 'a' is given twice\n");
        assertThat(Cli.run("compare", "a=127.0.0.1:1,pid=999999999").err()).isEqualTo("error: server a: no process 999999999\n");
    }

    /** A server that stops listening mid-run is named, its slices are kept, the summary is printed, and the exit is 1. */
    @Test
    void aServerThatDiesMidRunIsNamedAndItsSlicesKept(@TempDir Path dir) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (TestEchoServer a = new TestEchoServer(TestEchoServer.Mode.ECHO); TestEchoServer b = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            Path json = dir.resolve("died.json");
            Future<Cli> run = pool.submit(() -> Cli.run("compare", "--rounds", "20", "--slice", "200ms", "--warmup", "0", "-c", "2", "-k", "--rate", "500",
                    "--json", json.toString(), "a=" + a.hostPort(), "b=" + b.hostPort()));
            waitForReads(b, 200);
            b.close(); // the listener goes: the next slice's connects are refused
            Cli done = run.get(100, TimeUnit.SECONDS);
            assertThat(done.code()).isEqualTo(1);
            assertThat(done.err()).startsWith("error: server b (" + b.hostPort() + ") died in round ")
                    .contains(": every connect was refused; its ").hasLineCount(1);
            assertThat(done.out()).contains("median rate/s").containsPattern("\\nb +" + b.hostPort().replace(".", "\\.") + " +[1-9]");
            JsonNode root = JSON.readTree(json.toFile());
            assertThat(root.at("/servers/1/died").asText()).contains("every connect was refused");
            long served = 0;
            long refused = 0;
            long ofA = 0;
            for (JsonNode s : root.get("slices")) {
                if (s.get("server").asText().equals("a")) ofA++;
                else if (s.get("refused").asBoolean()) refused++;
                else if (s.get("requests").asLong() > 0) served++;
            }
            assertThat(served).isPositive();
            assertThat(refused).isEqualTo(1);
            assertThat(ofA).isEqualTo(20);
        } finally {
            pool.shutdownNow();
        }
    }

    /** A server given with pid=PID whose process ends mid-run is named by its pid. */
    @Test
    void aServerWhosePidIsGoneIsNamed(@TempDir Path dir) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Process stand = new ProcessBuilder("sleep", "60").start(); // stands for b's server process
        try (TestEchoServer a = new TestEchoServer(TestEchoServer.Mode.ECHO); TestEchoServer b = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            Future<Cli> run = pool.submit(() -> Cli.run("compare", "--rounds", "20", "--slice", "200ms", "--warmup", "0", "-c", "1", "-k", "--rate", "500",
                    "a=" + a.hostPort(), "b=" + b.hostPort() + ",pid=" + stand.pid()));
            waitForReads(b, 100);
            stand.destroy();
            stand.waitFor(10, TimeUnit.SECONDS);
            Cli done = run.get(100, TimeUnit.SECONDS);
            assertThat(done.code()).isEqualTo(1);
            assertThat(done.err()).startsWith("error: server b (" + b.hostPort() + ") died before round ")
                    .contains("its pid " + stand.pid() + " is gone; its ").hasLineCount(1);
            assertThat(done.out()).contains("against a:");
        } finally {
            stand.destroyForcibly();
            pool.shutdownNow();
        }
    }

    private static void waitForReads(TestEchoServer server, int reads) throws InterruptedException {
        for (int i = 0; i < 1000 && server.reads() < reads; i++) Thread.sleep(20);
        assertThat(server.reads()).as("the server was never driven").isGreaterThanOrEqualTo(reads);
    }

    private static List<List<String>> chunks(List<String> xs, int n) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i + n <= xs.size(); i += n) out.add(xs.subList(i, i + n));
        return out;
    }
}
