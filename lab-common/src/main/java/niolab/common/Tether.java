package niolab.common;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A command started in a process group of its own and tied to this JVM: when the JVM dies, by any
 * signal, SIGKILL included, the whole group is stopped within about a second, whatever the command
 * forked. The command runs under {@code setsid setpriv --pdeathsig KILL}, and beside it a watcher,
 * {@code tether.sh} (this package's resource, the one scripts/lib.sh's {@code tethered} runs too),
 * under {@code setpriv --pdeathsig TERM}: the kernel signals both when their parent dies, and the
 * watcher stops the group (echo-bench/README.md, "Stopped or killed", has the mechanism and its limits).
 *
 * <pre>
 *   Tether t = Tether.start(new ProcessBuilder("sh", "-c", command).redirectOutput(log));
 *   ... t.process() ...              // the command's own pid, which leads its process group
 *   t.release();                     // after the group is stopped: the watcher goes too
 * </pre>
 */
public final class Tether {
    /**
     * PR_SET_PDEATHSIG fires when the thread that started a process ends, not the JVM: every
     * tethered process is started from this one thread, which lives as long as the JVM.
     */
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tether-spawner");
        t.setDaemon(true);
        return t;
    });
    private static final String SCRIPT = script();

    private final Process process;
    private final Process watcher;

    private Tether(Process process, Process watcher) {
        this.process = process;
        this.watcher = watcher;
    }

    /** Starts {@code pb}'s command, prefixed with {@code setsid setpriv --pdeathsig KILL}, and its watcher. */
    public static Tether start(ProcessBuilder pb) throws IOException {
        List<String> command = new ArrayList<>(List.of("setsid", "setpriv", "--pdeathsig", "KILL"));
        command.addAll(pb.command());
        pb.command(command);
        Future<Tether> started = SPAWNER.submit(() -> {
            Process p = pb.start();
            Process w;
            try {
                w = new ProcessBuilder("setpriv", "--pdeathsig", "TERM", "sh", "-c", SCRIPT, "tether", Long.toString(p.pid()),
                        Long.toString(ProcessHandle.current().pid())).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
            } catch (IOException e) {
                p.destroyForcibly();
                throw e;
            }
            return new Tether(p, w);
        });
        try {
            return started.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            throw new IOException(String.valueOf(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting " + String.join(" ", command), e);
        }
    }

    /** The command's process: its pid leads the command's process group. */
    public Process process() {
        return process;
    }

    /** Ends the watcher; called once the command's group has been stopped, so that nothing is left. */
    public void release() {
        watcher.destroyForcibly();
        try {
            watcher.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String script() {
        try (InputStream in = Tether.class.getResourceAsStream("tether.sh")) {
            if (in == null) throw new IllegalStateException("tether.sh is missing from lab-common's jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read tether.sh from lab-common's jar", e);
        }
    }
}
