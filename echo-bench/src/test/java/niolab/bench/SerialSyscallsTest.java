package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.bench.SerialSocket.Kind;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import niolab.testkit.Capability;

/**
 * The serial client's syscall diet, checked with strace: per request it makes the calls of a
 * minimal C client (socket, setsockopt, connect, write, read, close), each exactly once, and,
 * on the JDK's channel, the two getsockname the JDK adds to every connect; any other call
 * comes less than once per 20 requests, futex less than once per 4 (the JVM's own stops of the
 * thread grow with the machine's load).
 *
 * <p>echo-bench runs as users run it, in its own JVM under {@code strace -ff} (a file per
 * thread). Counted are the measured run's serial thread and its watchdog, found by their
 * calls (the thread with one connect per measured request, and the thread it cloned): the
 * JVM's own threads (compilers, GC) are not the client's work, and the warm-up run before it
 * takes the one-off costs of a cold start. The run's own start and stop (two threads, a few
 * futex and signal-mask calls) are spread over 1,500 requests.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SerialSyscallsTest {
    private static final int WARMUP = 1500;
    private static final int REQUESTS = 1500;
    private static final double AT_MOST_PER_REQUEST = 0.05;
    private static final double AT_MOST_FUTEX_PER_REQUEST = 0.25;
    private static final Set<String> PER_REQUEST = Set.of("socket", "setsockopt", "connect", "write", "sendto", "read", "recvfrom", "close");
    private static final Pattern CALL = Pattern.compile("^([a-z0-9_]+)\\(");
    private static final Pattern CLONE = Pattern.compile("^clone3?\\(.*= (\\d+)$");

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aSerialRequestMakesTheSyscallsOfAMinimalCClient(Kind kind, @TempDir Path dir) throws Exception {
        Capability.JDK_22.assume(kind.available(), "FFM needs JDK 22 or newer, and a build on one (this JVM is " + Runtime.version().feature() + ")");
        Capability.STRACE.assume();
        Map<String, Map<String, Integer>> threads;
        try (TestEchoServer server = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            threads = traceEchoBench(kind, server.hostPort(), dir);
        }
        Map<String, Integer> serial = null;
        String serialTid = null;
        for (Map.Entry<String, Map<String, Integer>> t : threads.entrySet()) {
            if (t.getValue().getOrDefault("connect", 0) == REQUESTS) {
                serialTid = t.getKey();
                serial = t.getValue();
            }
        }
        assertThat(serial).as("a thread with one connect per measured request").isNotNull();
        Map<String, Integer> calls = new TreeMap<>(serial);
        Map<String, Integer> watchdog = threads.get(clonedBy(dir, serialTid));
        assertThat(watchdog).as("the watchdog thread").isNotNull();
        watchdog.forEach((call, n) -> calls.merge(call, n, Integer::sum));
        System.out.printf("serial client, %s: calls over %d requests: %s%n", kind, REQUESTS, calls);

        // The whole per-request list, each call exactly once a request (write or sendto, read or
        // recvfrom: a 64-byte echo is one of each): an extra read, write or setsockopt fails it.
        assertThat(calls.get("socket")).as("one socket per request").isEqualTo(REQUESTS);
        assertThat(calls.get("setsockopt")).as("setsockopt per request, among %s", calls).isEqualTo(REQUESTS);
        assertThat(calls.get("connect")).as("connect per request, among %s", calls).isEqualTo(REQUESTS);
        assertThat(calls.getOrDefault("write", 0) + calls.getOrDefault("sendto", 0)).as("write or sendto per request, among %s", calls).isEqualTo(REQUESTS);
        assertThat(calls.getOrDefault("read", 0) + calls.getOrDefault("recvfrom", 0)).as("read or recvfrom per request, among %s", calls).isEqualTo(REQUESTS);
        assertThat(calls.get("close")).as("close per request, among %s", calls).isEqualTo(REQUESTS);
        if (kind == Kind.CHANNEL) {
            assertThat(calls.get("getsockname")).as("getsockname (the JDK's connect asks for the local address twice), among %s", calls)
                    .isEqualTo(2 * REQUESTS);
        }
        for (Map.Entry<String, Integer> c : calls.entrySet()) {
            String call = c.getKey();
            if (PER_REQUEST.contains(call) || kind == Kind.CHANNEL && call.equals("getsockname")) continue;
            double perRequest = (double) c.getValue() / REQUESTS;
            // futex is also the JVM stopping the thread (safepoints, handshakes), which a busy machine
            // makes more of; a wait per request would still be one per request
            double bound = call.equals("futex") ? AT_MOST_FUTEX_PER_REQUEST : AT_MOST_PER_REQUEST;
            assertThat(perRequest).as("%s per request, among %s", call, calls).isLessThan(bound);
        }
    }

    /** Runs echo-bench under strace -ff; returns the calls of each of its threads named echo-bench-*, by thread id. */
    private static Map<String, Map<String, Integer>> traceEchoBench(Kind kind, String target, Path dir) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("strace", "-ff", "-o", dir.resolve("t").toString(),
                Paths.get(System.getProperty("java.home"), "bin", "java").toString()));
        if (Runtime.version().feature() >= 22) cmd.add("--enable-native-access=ALL-UNNAMED");
        // Fewer JVM threads for strace to stop on every call (no C2 compiler, no G1 workers): the
        // counted threads are echo-bench's own, whose calls do not depend on the JIT or collector.
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        if (kind == Kind.CHANNEL) cmd.add("-D" + Kind.PROPERTY + "=channel");
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), EchoBench.class.getName(),
                "--warmup", Integer.toString(WARMUP), "--requests", Integer.toString(REQUESTS), target));
        File log = dir.resolve("echo-bench.log").toFile();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
        try {
            assertThat(p.waitFor(150, TimeUnit.SECONDS)).as("echo-bench finished").isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(p.exitValue()).as(Files.readString(log.toPath())).isZero();

        Map<String, Map<String, Integer>> threads = new HashMap<>();
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (!name.startsWith("t.")) continue;
                List<String> lines = Files.readAllLines(f);
                if (lines.stream().noneMatch(l -> l.contains("PR_SET_NAME, \"echo-bench-"))) continue;
                Map<String, Integer> calls = new HashMap<>();
                for (String l : lines) {
                    Matcher m = CALL.matcher(l);
                    if (m.find()) calls.merge(m.group(1), 1, Integer::sum);
                }
                threads.put(name.substring(2), calls);
            }
        }
        return threads;
    }

    /** The id of the thread that {@code tid} created (its watchdog). */
    private static String clonedBy(Path dir, String tid) throws IOException {
        for (String l : Files.readAllLines(dir.resolve("t." + tid))) {
            Matcher m = CLONE.matcher(l);
            if (m.find()) return m.group(1);
        }
        return null;
    }
}
