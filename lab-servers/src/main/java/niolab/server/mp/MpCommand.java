package niolab.server.mp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import niolab.common.ServerCatalog;
import niolab.server.base.Arch;
import niolab.server.base.Architectures;
import niolab.server.base.Server;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import niolab.server.base.ServerOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "mp", mixinStandardHelpOptions = true,
        description = {"A master supervising N worker JVMs (--worker-arch) that share one port with SO_REUSEPORT.",
                "The kernel spreads new connections among the workers by hash; a worker that dies is restarted;"
                + " SIGTERM stops them all and prints the counters of each and their sum.",
                "Worker output is relayed prefixed [w1], [w2], ...; the workers get this JVM's options"
                + " (-Xmx..., e.g. through JAVA_OPTS) and the server options below, their architecture's own among them;"
                + " -XX:TieredStopAtLevel=1 there starts a pool sooner (no C2 compiling the start-up on every worker)"
                + " and gives up C2's code for the rest of the run."},
        footer = {"%n--migrate: when a worker's listener closes (it stops or dies), the connections waiting in its accept"
                + " queue are reset, unless net.ipv4.tcp_migrate_req=1 (Linux 5.14+), in which case the kernel moves them"
                + " to the surviving workers. The setting is system-wide and needs root: '" + MigrateSysctl.ENABLE + "'."})
public final class MpCommand extends ServerCommand {
    @Option(names = "--workers", defaultValue = "4", description = "Worker processes (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--worker-arch", defaultValue = "lt", completionCandidates = WorkerArchs.class,
            description = "Server each worker runs: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String workerArch;

    @Option(names = "--migrate",
            description = "Report whether the kernel migrates a closing worker's queued connections to the others"
                    + " (net.ipv4.tcp_migrate_req=1); see below.")
    boolean migrate;

    @Spec
    CommandSpec spec;

    /**
     * A command of each architecture the workers can run, made but never run: its own options
     * are mixed into mp's, parsed here once and handed on, and its checks are the workers'.
     */
    private final Map<String, ServerCommand> workerCommands = new LinkedHashMap<>();

    /** The architectures the catalog says mp's workers can run. */
    static final class WorkerArchs extends ArrayList<String> {
        WorkerArchs() {
            super(ServerCatalog.workerArchitectures());
        }
    }

    @Override
    public void configure(CommandLine commandLine) {
        for (String arch : ServerCatalog.workerArchitectures()) {
            ServerCommand worker = Architectures.newCommand(arch);
            workerCommands.put(arch, worker);
            if (worker.ownOptions() != null) {
                commandLine.getCommandSpec().addMixin(arch, CommandSpec.forAnnotatedObject(worker.ownOptions()));
            }
        }
        super.configure(commandLine);
    }

    /** Its options are those of any architecture its workers can run. */
    @Override
    protected List<String> archsServed() {
        return ServerCatalog.workerArchitectures();
    }

    /** The workers make the mistakes and take the options: checked against their architecture, then passed on. */
    @Override
    protected Arch actingArch(ServerConfig config) {
        return Arch.of(workerArch());
    }

    /** {@code --workers}, {@code --worker-arch} and the architectures' own options, checked: the architecture the workers run. */
    private String workerArch() {
        if (workers < 1 || workers > 256) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--workers must be between 1 and 256, not " + workers);
        }
        if (!workerCommands.containsKey(workerArch)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--worker-arch must be "
                    + ServerCatalog.words(ServerCatalog.workerArchitectures(), "or") + ", not '" + workerArch + "'");
        }
        for (String arch : workerCommands.keySet()) {
            CommandSpec own = spec.mixins().get(arch);
            if (arch.equals(workerArch) || own == null) continue;
            List<String> given = ServerOptions.given(spec.commandLine().getParseResult(), own, Set.of());
            if (!given.isEmpty()) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        given.get(0) + " is " + arch + "'s own option; the workers run " + workerArch);
            }
        }
        return workerArch;
    }

    /** The workers run this very JVM: their architecture's checks, said once here rather than by each worker. */
    @Override
    public int unusable(ServerConfig config) {
        String arch = workerArch();
        String backendProblem = config.backend() == null ? null : config.backend().problem(Arch.of(arch));
        if (backendProblem != null) throw new CommandLine.ParameterException(spec.commandLine(), backendProblem);
        return workerCommands.get(arch).unusable(config);
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

    /** The server options as the user gave them, for each worker to parse again; its architecture's own with them. */
    List<String> workerArgs() {
        List<String> args = new ArrayList<>(options.asArgs(WorkerCommand.MASTER_DECIDES));
        CommandSpec own = spec.mixins().get(workerArch);
        if (own != null) args.addAll(ServerOptions.given(spec.commandLine().getParseResult(), own, Set.of()));
        return args;
    }
}
