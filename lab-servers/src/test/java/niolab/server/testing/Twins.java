package niolab.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A broken server and its correct twin: the same command line but for the mistake, both child
 * JVMs on port 0, so a symptom is always shown beside the correct server in the same scenario.
 *
 * <pre>{@code
 * try (Twins t = Twins.start(List.of(), List.of("et"), "--mistake", "accept-once")) {
 *     ... the same scenario against t.correct() and t.broken() ...
 *     t.stop(); // both exit 0 and print their counters
 * }
 * }</pre>
 */
public record Twins(ServerProcess broken, ServerProcess correct) implements AutoCloseable {
    /** Starts {@code prefix args --port 0} and the same with {@code mistake}, at once (two JVMs start in about the time of one). */
    public static Twins start(List<String> prefix, List<String> args, String... mistake) throws Exception {
        ExecutorService starter = Executors.newSingleThreadExecutor();
        try {
            Future<ServerProcess> broken = starter.submit(() -> ServerProcess.startExactly(prefix, append(append(args, mistake), "--port", "0")));
            ServerProcess correct;
            try {
                correct = ServerProcess.startExactly(prefix, append(args, "--port", "0"));
            } catch (Exception e) {
                broken.get(90, TimeUnit.SECONDS).close();
                throw e;
            }
            try {
                return new Twins(broken.get(90, TimeUnit.SECONDS), correct);
            } catch (Exception e) {
                correct.close();
                throw e;
            }
        } finally {
            starter.shutdown();
        }
    }

    private static List<String> append(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all;
    }

    /** SIGTERM to both; each must exit 0 and print its counters. */
    public void stop() throws InterruptedException {
        assertThat(correct.terminate(30)).as("the correct server stops gracefully; it said:\n%s", correct.output()).isZero();
        assertThat(broken.terminate(30)).as("the broken server still stops gracefully").isZero();
    }

    @Override
    public void close() {
        broken.close();
        correct.close();
    }
}
