package niolab.server.testing;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import niolab.common.ReadyLine;

/**
 * A lab server started as a child JVM the way users start it ({@code lab-server <arch> ...}),
 * or as a native program ({@link #startCommand}), on port 0 unless told otherwise. It is ready once it prints its ready line; {@link #close()}
 * always stops it (SIGTERM, then SIGKILL), so no test leaves a process behind.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Pattern WARNING = Pattern.compile("^(\\[w\\d+\\] )?WARNING:");
    private static final long READY_TIMEOUT_S = 60;
    /**
     * As bin/lab-server grants it: et (JNA) and netty-epoll load native code, which JDK 24+
     * reports on every start unless granted (JEP 472).
     */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    private static final String DEFAULT_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    static final boolean DEFAULT_TEST_JVM_OPTIONS =
            System.getProperty("niolab.server.testJvmOptions", DEFAULT_OPTIONS).equals(DEFAULT_OPTIONS);
    /**
     * For the servers tests start, not for users: the client compiler only and the serial
     * collector. A test server lives seconds; C2's compiles and G1's threads cost more CPU than
     * they save (a start, 300 short connections and 3000 echoes: 0.88 s of CPU against 1.25 s,
     * on JDK 25). mp's workers take their master's options. {@code -Dniolab.server.testJvmOptions=}
     * (empty) starts them as bin/lab-server does, without the tests' AOT cache ({@link TestServerAot}).
     */
    private static final List<String> TEST_JVM_OPTIONS =
            List.of(System.getProperty("niolab.server.testJvmOptions", DEFAULT_OPTIONS).split(" +"))
                    .stream().filter(o -> !o.isEmpty()).collect(Collectors.toList());
    /** The main class to start; netty-peers' tests set {@code niolab.netty.NettyPeers}. */
    private static final String MAIN = System.getProperty("niolab.server.main", "niolab.server.LabServer");

    public final Process process;
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile InetSocketAddress address;
    private volatile String label;
    private final Thread reader;

    ServerProcess(Process process) {
        this.process = process;
        reader = new Thread(this::pump, "server-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code lab-server args...} with {@code --port 0} appended, and waits until it is ready. */
    public static ServerProcess start(String... args) throws IOException, InterruptedException {
        return startWithJvmOptions(List.of(), args);
    }

    /** Starts {@code prefix... java -cp ... LabServer args...} (prefix e.g. {@code prlimit --nofile=64}). */
    public static ServerProcess startExactly(List<String> prefix, List<String> args)
            throws IOException, InterruptedException {
        return awaitReady(launch(prefix, args));
    }

    /** Starts a server that is not a JVM (the C reference): {@code command... --port 0}, and waits until it is ready. */
    public static ServerProcess startCommand(List<String> command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(command);
        cmd.add("--port");
        cmd.add("0");
        return awaitReady(new ServerProcess(new ProcessBuilder(cmd).redirectErrorStream(true).start()));
    }

    /** {@link #start}, with options for the server's JVM (a flight recording, say). */
    public static ServerProcess startWithJvmOptions(List<String> jvmOptions, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(args));
        cmd.add("--port");
        cmd.add("0");
        return awaitReady(launch(List.of(), jvmOptions, cmd));
    }

    /** Whether the ready line came within {@code timeoutS} (false too if the process ended first). */
    boolean readyWithin(long timeoutS) throws InterruptedException {
        return ready.await(timeoutS, TimeUnit.SECONDS) && address != null;
    }

    private static ServerProcess awaitReady(ServerProcess p) throws InterruptedException {
        if (!p.readyWithin(READY_TIMEOUT_S)) {
            p.close();
            throw new IllegalStateException("server did not become ready: " + p.output());
        }
        return p;
    }

    /** Starts without waiting for readiness (for tests of failing starts). */
    public static ServerProcess launch(List<String> prefix, List<String> args) throws IOException {
        return launch(prefix, List.of(), args);
    }

    private static ServerProcess launch(List<String> prefix, List<String> jvmOptions, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(javaBinary().toString());
        cmd.add(NATIVE_ACCESS);
        cmd.addAll(TEST_JVM_OPTIONS);
        TestServerAot.Setup aot = TestServerAot.setup(MAIN, TEST_JVM_OPTIONS, DEFAULT_TEST_JVM_OPTIONS);
        cmd.addAll(aot.jvmOptions());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(aot.classPath());
        cmd.add(MAIN);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        return new ServerProcess(pb.start());
    }

    /** What a command run in-process ({@link #runInProcess}) ended with: main's exit code, and stdout and stderr together. */
    public record InProcess(int exitCode, String output) {
    }

    /**
     * Runs {@code args} in this JVM through the main class's {@code execute(String...)}, all that
     * its {@code main} does but exit: for a case that only parses flags and checks the message,
     * where a JVM start (about a second of CPU) adds nothing the case checks. Whatever the command
     * prints, a stack trace included, is captured; a case that needs the process itself (its exit
     * status as the shell sees it, its real stderr, a server that starts) launches one. A command
     * that has not returned within 30 s (it started a server after all) fails the case; its thread,
     * a daemon, is left to the end of the test JVM.
     */
    public static synchronized InProcess runInProcess(List<String> args) throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(captured, true, StandardCharsets.UTF_8);
        FutureTask<Integer> run = new FutureTask<>(() ->
                (Integer) Class.forName(MAIN).getMethod("execute", String[].class).invoke(null, (Object) args.toArray(new String[0])));
        Thread thread = new Thread(run, "in-process " + String.join(" ", args));
        thread.setDaemon(true);
        System.setOut(both);
        System.setErr(both);
        try {
            thread.start();
            return new InProcess(run.get(30, TimeUnit.SECONDS), captured.toString(StandardCharsets.UTF_8));
        } catch (TimeoutException e) {
            thread.interrupt();
            throw new AssertionError(MAIN + " " + String.join(" ", args) + " did not exit within 30 s:\n" + captured.toString(StandardCharsets.UTF_8));
        } catch (ExecutionException e) {
            throw new AssertionError(MAIN + " " + String.join(" ", args) + " threw instead of exiting", e.getCause());
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** The options every test server's JVM gets (C1 and the serial collector), for a test that starts another JVM of its own. */
    public static List<String> testJvmOptions() {
        return TEST_JVM_OPTIONS;
    }

    public static Path javaBinary() {
        return Paths.get(System.getProperty("java.home"), "bin", "java");
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                output.add(line);
                ReadyLine listening = address == null ? ReadyLine.parse(line) : null;
                if (listening != null) {
                    label = listening.label();
                    address = new InetSocketAddress(listening.host(), listening.port());
                    ready.countDown();
                }
            }
        } catch (IOException ignored) {
            // the process went away
        } finally {
            ready.countDown();
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    public int port() {
        return address.getPort();
    }

    /** The text in brackets of the ready line, e.g. {@code lt, echo}. */
    public String label() {
        return label;
    }

    public long pid() {
        return process.pid();
    }

    /** Everything the server printed so far (stdout and stderr interleaved). */
    public String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    /**
     * The lines of the output that are warnings of the JVM or a library ({@code WARNING: ...}),
     * mp's workers' too (they come prefixed {@code [w1] }).
     */
    public List<String> warningLines() {
        return output().lines().filter(l -> WARNING.matcher(l).find()).collect(Collectors.toList());
    }

    /** How many lines printed so far contain {@code text} (without joining them: a flood of lines stays cheap). */
    public int linesContaining(String text) {
        int n = 0;
        synchronized (output) {
            for (String line : output) {
                if (line.contains(text)) n++;
            }
        }
        return n;
    }

    /** Waits (bounded) for a line containing {@code text}, or until the output ends; true if it appeared. */
    public boolean awaitOutput(String text, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline) {
            if (output().contains(text)) return true;
            if (!reader.isAlive()) break; // its output has ended: the line will never come
            Thread.sleep(20);
        }
        return output().contains(text);
    }

    /** SIGTERM, then waits up to {@code timeoutS}; returns the exit code, or -1 if it had to be killed. */
    public int terminate(long timeoutS) throws InterruptedException {
        // Through the handle: Process.destroy() would also close our end of its output pipe,
        // losing the counters it prints on the way out.
        process.toHandle().destroy();
        if (process.waitFor(timeoutS, TimeUnit.SECONDS)) {
            drainOutput();
            return process.exitValue();
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return -1;
    }

    /** Waits (bounded) for the process to exit by itself; returns its exit code, or -1 on timeout. */
    public int awaitExit(long timeoutS) throws InterruptedException {
        if (!process.waitFor(timeoutS, TimeUnit.SECONDS)) return -1;
        drainOutput();
        return process.exitValue();
    }

    /** The reader thread may still be copying the last lines (bounded: a child may hold the pipe). */
    private void drainOutput() throws InterruptedException {
        reader.join(3000);
    }

    @Override
    public void close() {
        if (!process.isAlive()) return;
        try {
            terminate(15);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
