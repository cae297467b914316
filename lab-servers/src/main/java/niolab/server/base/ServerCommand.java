package niolab.server.base;

import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * What every {@code lab-server <arch>} command does once its options are parsed: its own checks,
 * the mistakes check, {@code --loops N} into a {@link MultiLoopServer}, then {@link ServerRunner}.
 * A command writes only how it builds its server ({@link #newServer}) and what it alone checks
 * ({@link #unusable}).
 */
public abstract class ServerCommand implements Callable<Integer>, ServerFactory {
    @Mixin
    protected ServerOptions options;

    /** The options as parsed, checked across options (a bad combination is a bad flag). */
    public final ServerConfig config() {
        return options.config();
    }

    @Override
    public final Integer call() {
        ServerConfig config = options.config();
        int unusable = unusable(config);
        if (unusable != 0) return unusable;
        if (Mistakes.refused(config, mistakesArch(config))) return 2;
        return ServerRunner.run(server(config), config);
    }

    /** What this command serves {@code config} with, made but not bound: its server, or {@code --loops N} of them. */
    public final Server server(ServerConfig config) {
        return config.loops() > 1 && loopsInThisJvm() ? new MultiLoopServer(this, config, System.out) : newServer(config);
    }

    /**
     * Zero when this command can serve {@code config} here; otherwise it has said why in one
     * line (or thrown a bad-flags ParameterException) and this is the exit code.
     */
    protected int unusable(ServerConfig config) {
        return 0;
    }

    /** The architecture whose mistakes {@code --mistake} may name: this command's (mp: its workers'). */
    protected Arch mistakesArch(ServerConfig config) {
        return config.arch();
    }

    /** Whether {@code --loops N} makes N loops in this JVM (mp hands it to its workers instead). */
    protected boolean loopsInThisJvm() {
        return true;
    }

    /** For a command where {@code --loops} has no meaning: one line, exit 2, when it is given. */
    protected static int noLoops(ServerConfig config, String why) {
        if (config.loops() == 1) return 0;
        System.err.println("error: --loops is for the event loops (lt, et): " + why);
        return 2;
    }
}
