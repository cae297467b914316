package niolab.server.uring;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import niolab.server.base.MultiLoopServer;
import niolab.server.base.Server;
import niolab.server.base.ServerFactory;
import niolab.server.base.ServerOptions;
import niolab.server.base.ServerRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code lab-server uring}. This class is Java 17 like every entry point: it checks the JVM
 * first and reaches the io_uring code (FFM, JDK 22+) only through {@link UringRuntime}, loaded
 * by name, so an older JVM gets one line and exit 2 instead of an UnsupportedClassVersionError.
 */
@Command(name = "uring", mixinStandardHelpOptions = true,
        description = {"Single-thread echo or HTTP /ping server on io_uring through FFM (completion-based; JDK 22+).",
                "The loop queues the accepts, receives and sends themselves; the kernel reports them done."})
public final class UringCommand implements Callable<Integer>, ServerFactory {
    public static final int MIN_JDK = 22;
    private static final String RUNTIME_CLASS = "niolab.server.uring.IoUringRuntime";

    @Mixin
    ServerOptions options;

    @Option(names = "--uring-mode", converter = UringMode.Converter.class,
            description = "basic (a recv per request, a buffer per connection), multishot (multishot accept and recv,"
                    + " buffers from a shared pool) or bufring (the same pool as a buffer ring)."
                    + " Default: the best this kernel supports.")
    UringMode mode;

    /** An mp worker's command (in its default mode), from options its master parsed: no parser at a worker's start. */
    public static UringCommand of(ServerOptions options) {
        UringCommand c = new UringCommand();
        c.options = options;
        return c;
    }

    @Override
    public Integer call() {
        int unusable = checkPlatform(System.err);
        if (unusable != 0) return unusable;
        String unsupported = mode == null ? null : runtime().unsupportedReason(mode);
        if (unsupported != null) {
            System.err.println("error: uring: " + unsupported);
            return 1;
        }
        return ServerRunner.run(options.loops > 1 ? new MultiLoopServer(this, options, System.out) : newServer(), options);
    }

    @Override
    public Server newServer() {
        UringRuntime runtime = runtime();
        return runtime.newServer(options, mode != null ? mode : runtime.bestMode());
    }

    /**
     * 0 when this JVM and this machine can run the uring server; otherwise prints the cause in
     * one line and returns the exit code: 2 for a JDK older than 22, 1 for the machine (no
     * io_uring, disabled by sysctl or seccomp, a build made without it).
     */
    public static int checkPlatform(PrintStream err) {
        int jdk = Runtime.version().feature();
        if (jdk < MIN_JDK) {
            err.println("error: uring needs JDK " + MIN_JDK + " or newer (this JVM is " + jdk + ")");
            return 2;
        }
        String reason = RuntimeHolder.RUNTIME == null
                ? "this lab-server was built without io_uring (on a JDK older than " + MIN_JDK + "): rebuild it on JDK " + MIN_JDK + " or newer"
                : RuntimeHolder.RUNTIME.unavailableReason();
        if (reason == null) return 0;
        err.println("error: uring: " + reason);
        return 1;
    }

    private static UringRuntime runtime() {
        return RuntimeHolder.RUNTIME;
    }

    /** Loaded once, on first use, and only on JDK 22+; null when this build has no io_uring classes. */
    private static final class RuntimeHolder {
        static final UringRuntime RUNTIME = load();

        private static UringRuntime load() {
            try {
                return (UringRuntime) Class.forName(RUNTIME_CLASS).getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError e) {
                return null;
            }
        }
    }
}
