package niolab.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import niolab.common.Tether;

/**
 * One fresh process of a server that {@code echo-bench compare} was given as a command: started
 * through {@code sh -c} (so that quoting, variables and wrappers such as {@code taskset} work as
 * in a shell) with {@code {port}} replaced by a port the kernel just handed out, its output in a
 * log file (a pipe nobody reads would block the server), waited for until it accepts connections,
 * and stopped with SIGTERM to its process group ({@code setsid}) and every descendant, then
 * SIGKILL after a bounded wait.
 *
 * <p>Every started process is stopped: by {@link #stop()} at the end of its fork, by a shutdown
 * hook when compare fails or is interrupted, and, when compare is killed outright (SIGKILL, the
 * out-of-memory killer), by its {@link Tether}: the process group dies with compare.
 *
 * <pre>
 *   ForkedServer s = ForkedServer.start("new", "java -jar new.jar --port {port}", logDir, 1);
 *   s.awaitListening(30_000);      // or a ServerFailed with the one line the user sees
 *   ...slices against s.target()...
 *   s.stop();
 * </pre>
 */
final class ForkedServer {
    /** What a command's port is written as. */
    static final String PORT = "{port}";
    /** Between SIGTERM and SIGKILL: a lab server drains its connections for up to 2 s. */
    static final long STOP_GRACE_MS = 5_000;
    private static final int LAST_LINES = 3;

    /** The processes started and not yet stopped, and whether compare is shutting down: guarded by itself. */
    private static final Set<ForkedServer> LIVE = new HashSet<>();
    private static boolean closing;
    /** Starts under way: the hook waits for them, since the JVM ends when the hooks do. */
    private static int starting;
    private static final String STOPPED = "compare was stopped; so are its servers";

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ForkedServer::stopAll, "echo-bench-stop-servers"));
    }

    /** Thrown with the one line the user sees for a server that never served. */
    static final class ServerFailed extends IOException {
        ServerFailed(String message) {
            super(message);
        }
    }

    private final String name;
    private final int port;
    private final Tether tether;
    private final Process process;
    private final Path log;

    private ForkedServer(String name, int port, Tether tether, Path log) {
        this.name = name;
        this.port = port;
        this.tether = tether;
        this.process = tether.process();
        this.log = log;
    }

    /** Starts {@code command} with a fresh port; its output goes to {@code logDir/NAME-fork-F.log}. */
    static ForkedServer start(String name, String command, Path logDir, int fork) throws IOException {
        int port = freePort();
        Path log = logDir.resolve(name + "-fork-" + fork + ".log");
        // the command leads a process group of its own (Tether: setsid), so that one signal reaches whatever it forks, even later
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", command.replace(PORT, Integer.toString(port)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        synchronized (LIVE) {
            if (closing) throw new ServerFailed(STOPPED);
            starting++;
        }
        Tether p;
        try {
            p = Tether.start(pb);
        } catch (IOException e) {
            synchronized (LIVE) {
                starting--;
                LIVE.notifyAll();
            }
            throw new ServerFailed("server " + name + ": cannot start sh -c '" + command + "' under setsid and setpriv (util-linux): " + e.getMessage());
        }
        ForkedServer s = new ForkedServer(name, port, p, log);
        synchronized (LIVE) {
            starting--;
            LIVE.add(s);
            LIVE.notifyAll();
            // the shutdown hook waited for this start and stops the process with the others
            if (closing) throw new ServerFailed(STOPPED);
        }
        return s;
    }

    /** From now on no server is started and no death reported: compare was interrupted ({@link RunAbort}) and winds down. */
    static void refuseStarts() {
        synchronized (LIVE) {
            closing = true;
        }
    }

    /** Whether compare is shutting down (interrupted, killed): no server is started and no death reported any more. */
    static boolean closing() {
        synchronized (LIVE) {
            return closing;
        }
    }

    /** A port nobody listens on now: the kernel's choice for a bind to port 0, released at once for the server to take. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }

    /** Waits, polling with connects, until the server accepts one; a server that exits or never listens is a {@link ServerFailed}. */
    void awaitListening(long timeoutMillis) throws ServerFailed {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            if (closing()) throw new ServerFailed(STOPPED);
            if (!process.isAlive()) {
                int status = exitStatus();
                stop();
                throw new ServerFailed(String.format(Locale.ROOT, "server %s exited with status %d before listening on port %d%s", name, status, port,
                        lastLines()));
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                // the port was free when chosen, but another program may have taken it since: only our own listener counts
                if (ListenerOwner.owns(process.pid(), port)) return;
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() - deadline > 0) {
                stop();
                throw new ServerFailed(String.format(Locale.ROOT, "server %s did not listen on port %d within %d s%s", name, port,
                        TimeUnit.MILLISECONDS.toSeconds(timeoutMillis), lastLines()));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop();
                throw new ServerFailed(STOPPED);
            }
        }
    }

    /** Where the load goes: this process's port on the loopback, and its pid for CPU per request. */
    CompareTarget target() {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        return new CompareTarget(name, "127.0.0.1:" + port, address, process.pid());
    }

    /** Whether it has exited within {@code millis}: a refused slice may come a moment before the exit is seen. */
    boolean exitsWithin(long millis) throws InterruptedException {
        return process.waitFor(millis, TimeUnit.MILLISECONDS);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The exit status, or -1 while it runs. */
    int exitStatus() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /**
     * SIGTERM to the process group and to every descendant (listed first: once the parent is gone
     * they belong to init), a bounded wait, then SIGKILL to the group and whatever is left. Idempotent.
     */
    void stop() {
        synchronized (LIVE) {
            LIVE.remove(this);
        }
        List<ProcessHandle> tree = new ArrayList<>();
        process.toHandle().descendants().forEach(tree::add);
        tree.add(process.toHandle());
        signalGroup("-TERM");
        for (ProcessHandle h : tree) h.destroy();
        // polled, not onExit(): a server whose sh died first is an orphan, and an orphan that has
        // exited stays a zombie until init reaps it, which here took two seconds per fork
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_GRACE_MS);
        try {
            while (anyAlive(tree) && System.nanoTime() < deadline) Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        signalGroup("-KILL");
        for (ProcessHandle h : tree) {
            if (h.isAlive()) h.destroyForcibly();
        }
        try {
            process.waitFor(STOP_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        tether.release();
    }

    /** Whether any of {@code tree} still runs: the command's own process as its Process sees it, the others unless zombies. */
    private boolean anyAlive(List<ProcessHandle> tree) {
        if (process.isAlive()) return true;
        for (ProcessHandle h : tree) {
            if (h.pid() != process.pid() && h.isAlive() && !zombie(h.pid())) return true;
        }
        return false;
    }

    /** Whether /proc says PID has exited and waits to be reaped (state Z): it holds no port and runs nothing. */
    private static boolean zombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // the state follows the command's closing parenthesis, which may itself hold one
            int end = stat.lastIndexOf(')');
            return end > 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    /** kill(1) to the process group the command leads (its pid, through setsid); a group already gone is no error. */
    private void signalGroup(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, "--", "-" + process.pid()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(STOP_GRACE_MS, TimeUnit.MILLISECONDS)) kill.destroyForcibly();
        } catch (IOException e) {
            // no kill(1): the descendants are signalled one by one
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** "; its last lines: ... | ..." from the log, or "" when it printed nothing. */
    String lastLines() {
        String[] lines;
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(log.toFile(), "r")) {
            // the tail is enough for three lines, and a server may have printed megabytes
            long from = Math.max(0, f.length() - 8192);
            byte[] tail = new byte[(int) (f.length() - from)];
            f.seek(from);
            f.readFully(tail);
            lines = new String(tail, StandardCharsets.UTF_8).split("\n");
        } catch (IOException e) {
            return "";
        }
        List<String> last = new ArrayList<>();
        for (int i = lines.length - 1; i >= 0 && last.size() < LAST_LINES; i--) {
            if (!lines[i].isBlank()) last.add(0, lines[i].strip());
        }
        return last.isEmpty() ? "; it printed nothing" : "; its last lines: " + String.join(" | ", last);
    }

    /** The shutdown hook: no more starts, a bounded wait for those under way, then every live server stopped. */
    private static void stopAll() {
        List<ForkedServer> live;
        synchronized (LIVE) {
            closing = true;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_GRACE_MS);
            try {
                for (long left; starting > 0 && (left = deadline - System.nanoTime()) > 0; ) {
                    LIVE.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            live = new ArrayList<>(LIVE);
        }
        for (ForkedServer s : live) s.stop();
    }
}
