package niolab.server.base;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import niolab.common.ReadyLine;
import sun.misc.Signal;

/**
 * The life of a server process around its event loop: bind, print the ready line, install
 * SIGTERM/SIGINT handlers, run, print the counters, and turn expected failures into one line
 * for people and an exit code. All error handling sits here, not in the loops.
 */
public final class ServerRunner {
    /** How long a worker whose master is gone may take to drain before it is halted. */
    private static final long STDIN_EOF_HALT_MS = 5000;
    /**
     * Classes a server may first need once its descriptors have run out (vt's idle sweep asks
     * WaitTimeout then), loaded with this class, before serving: run from class directories, as
     * the tests run it, loading one then needs a descriptor and fails with NoClassDefFoundError.
     */
    private static final Class<?>[] LOADED_BEFORE_SERVING = {WaitTimeout.class};

    private ServerRunner() {
    }

    /**
     * A bind that failed on another port than the one asked for: a server of several listeners
     * has resolved port 0 by its first bind, and a later bind that fails is on that port.
     */
    public static final class BindFailedOn extends IOException {
        private final int port;

        public BindFailedOn(int port, Exception cause) {
            super(cause.getMessage(), cause);
            this.port = port;
        }
    }

    /** Why the server could not listen, in one line. */
    private static String bindFailure(Exception failure, ServerConfig config) {
        int port = failure instanceof BindFailedOn f ? f.port : config.port();
        Exception e = failure instanceof BindFailedOn ? (Exception) failure.getCause() : failure;
        String where = ReadyLine.hostPort(config.host(), port);
        String msg = String.valueOf(e.getMessage());
        if (e instanceof BindException && msg.contains("in use")) return where + " is already in use";
        if (e instanceof BindException && msg.contains("ermission")) return "permission denied binding " + where + " (ports below 1024 need root)";
        if (e instanceof BindException) return "cannot bind " + where + ": " + msg;
        if (e instanceof UnknownHostException || e instanceof java.nio.channels.UnresolvedAddressException) {
            return "cannot resolve host '" + config.host() + "'";
        }
        if (e instanceof SocketException) return "cannot listen on " + where + ": " + msg;
        return "cannot listen on " + where + ": " + describe(e);
    }

    /** Runs {@code server} on this thread; returns the process exit code (0 after a graceful stop). */
    public static int run(Server server, ServerConfig config) {
        return run(server, config, System.out, System.err);
    }

    public static int run(Server server, ServerConfig config, PrintStream out, PrintStream err) {
        if (config.exitOnStdinEof()) watchStdin(server);
        InetSocketAddress bound;
        try {
            bound = server.bind();
        } catch (IOException | RuntimeException e) {
            err.println("error: " + bindFailure(e, config));
            return 1;
        }
        Signal.handle(new Signal("TERM"), s -> server.stop());
        Signal.handle(new Signal("INT"), s -> server.stop());
        Thread stats = startStatsPrinter(server, config.statsInterval(), out);
        out.println(ReadyLine.format(bound.getAddress().getHostAddress(), bound.getPort(), server.label()));
        out.flush();
        int code = 0;
        try {
            server.run();
        } catch (IOException | RuntimeException e) {
            err.println("error: event loop failed: " + describe(e));
            code = 1;
        } catch (Error e) {
            // A bug or an exhausted JVM (say a class that could not load without a descriptor): still one line.
            err.println("error: event loop failed: " + e);
            code = 1;
        }
        if (stats != null) stats.interrupt();
        out.println("counters: " + server.counters().format());
        out.flush();
        return code;
    }

    private static Thread startStatsPrinter(Server server, Duration interval, PrintStream out) {
        if (interval == null || interval.isZero() || interval.isNegative()) return null;
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(interval.toMillis());
                    out.println("stats: " + server.counters().format());
                    out.flush();
                }
            } catch (InterruptedException ignored) {
                // the server stopped
            }
        }, "stats");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * An mp worker's stdin is a pipe whose only writer is its master: when the master dies, even
     * by SIGKILL, the kernel closes that pipe and this read returns EOF, so the worker stops
     * instead of living on as an orphan. Started before bind so a worker still starting notices too.
     */
    private static void watchStdin(Server server) {
        Thread t = new Thread(() -> {
            byte[] sink = new byte[256];
            try {
                while (System.in.read(sink) >= 0) {
                    // the master never writes; anything read is ignored
                }
            } catch (IOException ignored) {
                // a broken stdin means the master is gone just the same
            }
            server.stop();
            try {
                Thread.sleep(STDIN_EOF_HALT_MS);
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
            // Nobody is left to kill a worker whose drain hangs: make sure it goes.
            Runtime.getRuntime().halt(1);
        }, "stdin-eof");
        t.setDaemon(true);
        t.start();
    }

    /** An exception as one readable phrase: its message, or its class when it has none. */
    public static String describe(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
