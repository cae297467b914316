package niolab.server.mp;

import java.util.Arrays;
import java.util.List;
import niolab.common.ServerCatalog;
import niolab.server.base.Arch;
import niolab.server.base.Architectures;
import niolab.server.base.ServerConfig;
import picocli.CommandLine;

/**
 * The main class of an mp worker JVM: the architecture's own command, parsing the options the
 * user gave the master ({@link WorkerCommand}), so that an option added to
 * {@link niolab.server.base.ServerOptions} reaches the workers with no edit here. Only that one
 * command is built: picocli reads a command's annotations by reflection, and the others would
 * cost each worker's start for nothing.
 *
 * <pre>
 *   java ... niolab.server.mp.WorkerMain lt --protocol http --host 127.0.0.1 --port 9988 --reuse-port --exit-on-stdin-eof
 * </pre>
 */
public final class WorkerMain {
    private WorkerMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Serves until stopped; the exit status a worker gives its master (2: a command line it cannot read). */
    public static int run(String[] args) {
        CommandLine command = args.length == 0 ? null : command(args[0]);
        if (command == null) {
            System.err.println("error: a worker's command line is the master's to write: "
                    + (args.length == 0 ? "no architecture" : "'" + args[0] + "' is not a worker's architecture"));
            return 2;
        }
        return command.execute(Arrays.copyOfRange(args, 1, args.length));
    }

    /**
     * The command line {@code lab-server mp MP_ARGS} gives its workers on {@code port}, from the
     * architecture on, as {@link #run} takes it: what lab-server's AOT training runs in its own
     * JVM, written by the master's own code rather than by hand.
     */
    public static List<String> argv(int port, String... mpArgs) {
        CommandLine mp = Architectures.commandLine("mp");
        mp.parseArgs(mpArgs);
        MpCommand master = mp.getCommand();
        ServerConfig config = master.config();
        return WorkerCommand.argv(Arch.of(master.workerArch), master.workerArgs(), config.host(), port);
    }

    /** The command line of a worker that runs {@code arch}; null for one the catalog says a worker cannot run (mp, bio). */
    static CommandLine command(String arch) {
        return ServerCatalog.workerArchitectures().contains(arch) ? Architectures.commandLine(arch) : null;
    }
}
