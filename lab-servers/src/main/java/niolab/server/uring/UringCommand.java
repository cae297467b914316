package niolab.server.uring;

import java.io.PrintStream;
import niolab.server.base.NewerJdkCode;
import niolab.server.base.Server;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code lab-server uring}. This class is Java 17 like every entry point: it checks the JVM
 * first and reaches the io_uring code (FFM, JDK 22+) only through {@link UringRuntime}, loaded
 * by name ({@link NewerJdkCode}), so an older JVM gets one line and exit 2 instead of an UnsupportedClassVersionError.
 */
@Command(name = "uring", mixinStandardHelpOptions = true,
        description = {"Single-thread echo or HTTP /ping server on io_uring through FFM (completion-based; JDK 22+).",
                "The loop queues the accepts, receives and sends themselves; the kernel reports them done."})
public final class UringCommand extends ServerCommand {
    public static final NewerJdkCode<UringRuntime> RUNTIME =
            new NewerJdkCode<>("uring", 22, "niolab.server.uring.Jdk22UringRuntime", UringRuntime.class);

    @Mixin
    UringOptions own = new UringOptions();

    @Override
    public Object ownOptions() {
        return own;
    }

    @Override
    public int unusable(ServerConfig config) {
        int unusable = checkPlatform(System.err);
        if (unusable != 0) return unusable;
        String unsupported = own.mode == null ? null : RUNTIME.get().unsupportedReason(own.mode);
        if (unsupported != null) {
            System.err.println("error: uring: " + unsupported);
            return 1;
        }
        return 0;
    }

    @Override
    public Server newServer(ServerConfig config) {
        UringRuntime runtime = RUNTIME.get();
        return runtime.newServer(config, own.mode != null ? own.mode : runtime.bestMode());
    }

    /**
     * 0 when this JVM and this machine can run the uring server; otherwise prints the cause in
     * one line and returns the exit code: 2 for a JDK older than 22, 1 for the machine (no
     * io_uring, disabled by sysctl or seccomp, a build made without it).
     */
    public static int checkPlatform(PrintStream err) {
        String unavailable = RUNTIME.unavailable();
        if (unavailable != null) {
            err.println("error: " + unavailable);
            return RUNTIME.jvmTooOld() ? 2 : 1;
        }
        String reason = RUNTIME.get().unavailableReason();
        if (reason == null) return 0;
        err.println("error: uring: " + reason);
        return 1;
    }
}
