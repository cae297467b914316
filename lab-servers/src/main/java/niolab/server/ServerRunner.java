package niolab.server;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import sun.misc.Signal;

/**
 * The life of a server process around its event loop: bind, print the ready line, install
 * SIGTERM/SIGINT handlers, run, print the counters, and turn expected failures into one line
 * for people and an exit code. All error handling sits here, not in the loops.
 */
public final class ServerRunner {
    /** How long a worker whose master is gone may take to drain before it is halted. */
    private static final long STDIN_EOF_HALT_MS = 5000;

    private ServerRunner() {
    }

    /** Runs {@code server} on this thread; returns the process exit code (0 after a graceful stop). */
    public static int run(EventLoopServer server, ServerOptions options) {
        return run(server, options, System.out, System.err);
    }

    static int run(EventLoopServer server, ServerOptions options, PrintStream out, PrintStream err) {
        if (options.exitOnStdinEof) watchStdin(server);
        String where = ServerOptions.hostPort(options.host, options.port);
        InetSocketAddress bound;
        try {
            bound = server.bind();
        } catch (BindException e) {
            String msg = String.valueOf(e.getMessage());
            if (msg.contains("in use")) {
                err.println("error: " + where + " is already in use");
            } else if (msg.contains("ermission")) {
                err.println("error: permission denied binding " + where + " (ports below 1024 need root)");
            } else {
                err.println("error: cannot bind " + where + ": " + msg);
            }
            return 1;
        } catch (UnknownHostException | java.nio.channels.UnresolvedAddressException e) {
            err.println("error: cannot resolve host '" + options.host + "'");
            return 1;
        } catch (SocketException e) {
            err.println("error: cannot listen on " + where + ": " + e.getMessage());
            return 1;
        } catch (IOException | RuntimeException e) {
            err.println("error: cannot listen on " + where + ": " + describe(e));
            return 1;
        }
        Signal.handle(new Signal("TERM"), s -> server.stop());
        Signal.handle(new Signal("INT"), s -> server.stop());
        Thread stats = startStatsPrinter(server, options.statsInterval, out);
        out.println("listening on " + ServerOptions.hostPort(bound.getAddress().getHostAddress(), bound.getPort())
                + " (" + server.label() + ")");
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

    private static Thread startStatsPrinter(EventLoopServer server, Duration interval, PrintStream out) {
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
    private static void watchStdin(EventLoopServer server) {
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
