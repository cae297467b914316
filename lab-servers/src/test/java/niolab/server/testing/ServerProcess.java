package niolab.server.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A lab server started as a child JVM the way users start it ({@code lab-server <arch> ...}),
 * on port 0 unless told otherwise. It is ready once it prints its ready line; {@link #close()}
 * always stops it (SIGTERM, then SIGKILL), so no test leaves a process behind.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("^listening on (\\S+):(\\d+) \\((.*)\\)");
    private static final long READY_TIMEOUT_S = 60;
    /** The main class to start; netty-peers' tests set {@code niolab.netty.NettyPeers}. */
    private static final String MAIN = System.getProperty("niolab.server.main", "niolab.server.LabServer");

    public final Process process;
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile InetSocketAddress address;
    private volatile String label;
    private final Thread reader;

    private ServerProcess(Process process) {
        this.process = process;
        reader = new Thread(this::pump, "server-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code lab-server args...} with {@code --port 0} appended, and waits until it is ready. */
    public static ServerProcess start(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(args));
        cmd.add("--port");
        cmd.add("0");
        return startExactly(List.of(), cmd);
    }

    /** Starts {@code prefix... java -cp ... LabServer args...} (prefix e.g. {@code prlimit --nofile=64}). */
    public static ServerProcess startExactly(List<String> prefix, List<String> args)
            throws IOException, InterruptedException {
        ServerProcess p = launch(prefix, args);
        if (!p.ready.await(READY_TIMEOUT_S, TimeUnit.SECONDS) || p.address == null) {
            p.close();
            throw new IllegalStateException("server did not become ready: " + p.output());
        }
        return p;
    }

    /** Starts without waiting for readiness (for tests of failing starts). */
    public static ServerProcess launch(List<String> prefix, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(javaBinary().toString());
        // JNA and FFM without the warning JDK 22+ prints on their first native call; JDK 17 accepts the flag too.
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(MAIN);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        return new ServerProcess(pb.start());
    }

    public static Path javaBinary() {
        return Paths.get(System.getProperty("java.home"), "bin", "java");
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                output.add(line);
                Matcher m = READY.matcher(line);
                if (address == null && m.find()) {
                    String host = m.group(1).replace("[", "").replace("]", "");
                    label = m.group(3);
                    address = new InetSocketAddress(host, Integer.parseInt(m.group(2)));
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

    /** Waits (bounded) for a line containing {@code text}; true if it appeared. */
    public boolean awaitOutput(String text, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline) {
            if (output().contains(text)) return true;
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
