package niolab.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import niolab.common.ProcStat;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Where the suite's CPU goes, one line per test class, when {@code NIOLAB_TEST_CPU_LOG=FILE} is in
 * the environment (off otherwise; found through META-INF/services like {@link SkipGuard}):
 * {@code module_dir class cpu_s user_s sys_s processes commands} (the module's whole path: a
 * grading run of HandoutTest logs its handout's classes too, inside HandoutTest's own figure). CPU is the test JVM's own plus that
 * of every child it has reaped ({@code /proc/self/stat}: utime, stime, cutime, cstime), so a
 * class's servers, graders and Maven runs count to it; Surefire runs the classes of a fork one
 * after the other, so the difference across a class is that class's. Processes are the distinct
 * descendants seen by a sampler every 100 ms (a child living less than that may be missed).
 * Recipe: {@code NIOLAB_TEST_CPU_LOG=/tmp/cpu.log make test; sort -k3 -nr /tmp/cpu.log}.
 */
public final class ClassCpuLog implements BeforeAllCallback, AfterAllCallback {
    private static final Path LOG = Optional.ofNullable(System.getenv("NIOLAB_TEST_CPU_LOG")).map(Paths::get).orElse(null);
    private static final Map<Long, String> SEEN = new ConcurrentHashMap<>();
    private static final Map<Class<?>, long[]> START = new ConcurrentHashMap<>();

    static {
        if (LOG != null) {
            Thread sampler = new Thread(ClassCpuLog::sample, "class-cpu-log");
            sampler.setDaemon(true);
            sampler.start();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (LOG == null || context.getTestClass().isEmpty()) return;
        START.put(context.getRequiredTestClass(), ticks());
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (LOG == null || context.getTestClass().isEmpty()) return;
        long[] start = START.remove(context.getRequiredTestClass());
        if (start == null) return;
        long[] now = ticks();
        StringBuilder commands = new StringBuilder();
        Map<String, Integer> counts = new TreeMap<>();
        synchronized (SEEN) {
            for (Map.Entry<Long, String> e : SEEN.entrySet()) counts.merge(e.getValue(), 1, Integer::sum);
            SEEN.clear();
        }
        counts.forEach((c, n) -> commands.append(commands.length() == 0 ? "" : ",").append(c).append('=').append(n));
        int processes = counts.values().stream().mapToInt(Integer::intValue).sum();
        String line = String.format(Locale.ROOT, "%s %s %.2f %.2f %.2f %d %s%n",
                System.getProperty("user.dir"), context.getRequiredTestClass().getName(),
                (now[0] + now[1] - start[0] - start[1]) / 100.0, (now[0] - start[0]) / 100.0, (now[1] - start[1]) / 100.0,
                processes, commands.length() == 0 ? "-" : commands);
        Files.write(LOG, line.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** User and system ticks (1/100 s) of this JVM and its reaped children. */
    private static long[] ticks() {
        ProcStat self = ProcStat.self();
        return self == null ? new long[] {0, 0} : new long[] {self.utime() + self.cutime(), self.stime() + self.cstime()};
    }

    private static void sample() {
        while (true) {
            synchronized (SEEN) {
                ProcessHandle.current().descendants().forEach(p ->
                        SEEN.putIfAbsent(p.pid(), p.info().command().map(c -> Paths.get(c).getFileName().toString()).orElse("?")));
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
