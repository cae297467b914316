package niolab.server.mp;

import java.util.Set;
import java.util.concurrent.Callable;
import niolab.server.base.Mistakes;
import niolab.server.base.ServerOptions;
import niolab.server.base.ServerRunner;
import niolab.server.uring.UringCommand;
import niolab.server.vt.VtCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "mp", mixinStandardHelpOptions = true,
        description = {"A master supervising N worker JVMs (lt, et, vt or uring) that share one port with SO_REUSEPORT.",
                "The kernel spreads new connections among the workers by hash; a worker that dies is restarted;"
                + " SIGTERM stops them all and prints the counters of each and their sum.",
                "Worker output is relayed prefixed [w1], [w2], ...; the workers get this JVM's options"
                + " (-Xmx..., e.g. through JAVA_OPTS) and the server options below;"
                + " -XX:TieredStopAtLevel=1 there starts a pool sooner (no C2 compiling the start-up on every worker)"
                + " and gives up C2's code for the rest of the run."},
        footer = {"%n--migrate: when a worker's listener closes (it stops or dies), the connections waiting in its accept"
                + " queue are reset, unless net.ipv4.tcp_migrate_req=1 (Linux 5.14+), in which case the kernel moves them"
                + " to the surviving workers. The setting is system-wide and needs root: '" + MigrateSysctl.ENABLE + "'."})
public final class MpCommand implements Callable<Integer> {
    private static final Set<String> WORKER_ARCHS = Set.of("lt", "et", "vt", "uring");

    @Mixin
    ServerOptions options;

    @Option(names = "--workers", defaultValue = "4", description = "Worker processes (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--worker-arch", defaultValue = "lt",
            description = "Server each worker runs: lt, et, vt or uring (uring in its default mode) (default: ${DEFAULT-VALUE}).")
    String workerArch;

    @Option(names = "--binding", description = "With --worker-arch et: how its loops call libc, jna or ffm (JDK 22+).")
    String binding;

    @Option(names = "--migrate",
            description = "Report whether the kernel migrates a closing worker's queued connections to the others"
                    + " (net.ipv4.tcp_migrate_req=1); see below.")
    boolean migrate;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (workers < 1 || workers > 256) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--workers must be between 1 and 256, not " + workers);
        }
        if (!WORKER_ARCHS.contains(workerArch)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--worker-arch must be lt, et, vt or uring, not '" + workerArch + "'");
        }
        // The workers run this very JVM: say now, once, if it cannot run them.
        if (workerArch.equals("uring")) {
            int unusable = UringCommand.checkPlatform(System.err);
            if (unusable != 0) return unusable;
        }
        String unavailable = workerArch.equals("vt") ? VtCommand.RUNTIME.unavailable() : null;
        if (unavailable != null) {
            System.err.println("error: " + unavailable); // said once here, not by each worker as it is given up on
            return 2;
        }
        if (Mistakes.refused(options, workerArch)) return 2; // the workers make them: passed on with the other options
        String backendProblem = options.backend == null ? null : options.backend.problem(workerArch);
        if (backendProblem != null) throw new CommandLine.ParameterException(spec.commandLine(), backendProblem);
        if (binding != null && !workerArch.equals("et")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--binding goes with --worker-arch et");
        }
        if (binding != null && !binding.equals("jna") && !binding.equals("ffm")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown binding '" + binding + "' (expected jna or ffm)");
        }
        return ServerRunner.run(new MultiProcessMaster(options, workers, workerArch, binding, migrate), options);
    }
}
