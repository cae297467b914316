package niolab.server.mp;

import java.util.ArrayList;
import java.util.List;
import niolab.server.base.Arch;
import niolab.server.base.Server;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import niolab.server.uring.UringCommand;
import niolab.server.vt.VtCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
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
public final class MpCommand extends ServerCommand {
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
    protected int unusable(ServerConfig config) {
        if (workers < 1 || workers > 256) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--workers must be between 1 and 256, not " + workers);
        }
        Arch arch = Arch.of(workerArch);
        if (WorkerMain.command(arch) == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--worker-arch must be lt, et, vt or uring, not '" + workerArch + "'");
        }
        // The workers run this very JVM: say now, once, if it cannot run them.
        if (arch == Arch.URING) {
            int unusable = UringCommand.checkPlatform(System.err);
            if (unusable != 0) return unusable;
        }
        String unavailable = arch == Arch.VT ? VtCommand.RUNTIME.unavailable() : null;
        if (unavailable != null) {
            System.err.println("error: " + unavailable); // said once here, not by each worker as it is given up on
            return 2;
        }
        String backendProblem = config.backend() == null ? null : config.backend().problem(arch);
        if (backendProblem != null) throw new CommandLine.ParameterException(spec.commandLine(), backendProblem);
        if (binding != null && arch != Arch.ET) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--binding goes with --worker-arch et");
        }
        if (binding != null && !binding.equals("jna") && !binding.equals("ffm")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown binding '" + binding + "' (expected jna or ffm)");
        }
        return 0;
    }

    /** The workers make the mistakes: checked against their architecture, then passed on with the other options. */
    @Override
    protected Arch mistakesArch(ServerConfig config) {
        return Arch.of(workerArch);
    }

    /** Each worker makes the loops of {@code --loops N}. */
    @Override
    protected boolean loopsInThisJvm() {
        return false;
    }

    @Override
    public Server newServer(ServerConfig config) {
        return new MultiProcessMaster(config, workers, Arch.of(workerArch), workerArgs(), migrate);
    }

    /** The server options as the user gave them, for each worker to parse again; et's binding with them. */
    List<String> workerArgs() {
        List<String> args = new ArrayList<>(options.asArgs(WorkerCommand.MASTER_DECIDES));
        if (binding != null) args.addAll(List.of("--binding", binding));
        return args;
    }
}
