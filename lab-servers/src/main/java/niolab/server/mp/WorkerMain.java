package niolab.server.mp;

import java.util.Arrays;
import niolab.common.ServerCatalog;
import niolab.server.base.Architectures;
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

    /** The command line of a worker that runs {@code arch}; null for one the catalog says a worker cannot run (mp, bio). */
    static CommandLine command(String arch) {
        return ServerCatalog.workerArchitectures().contains(arch) ? Architectures.commandLine(arch) : null;
    }
}
