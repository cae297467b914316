package niolab.server;

import java.util.ArrayList;
import java.util.List;
import niolab.common.ServerCatalog;
import niolab.server.base.Arch;
import niolab.server.base.Architectures;
import niolab.server.base.Mistake;
import niolab.server.base.Server;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import niolab.server.base.ServerOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code lab-server <arch> [options]}: the entry point of every NIO Lab server.
 *
 * <pre>
 *   lab-server lt --port 9988            # single-thread java.nio Selector (level-triggered)
 *   lab-server et --port 9988            # single-thread epoll through JNA (edge-triggered)
 *   lab-server vt --port 9988            # a virtual thread per connection, blocking I/O (JDK 21+)
 *   lab-server bio --port 9988           # a platform thread per connection, blocking I/O (the course's day 1)
 *   lab-server uring --port 9988         # single-thread io_uring through FFM (completion-based, JDK 22+)
 *   lab-server mp --workers 4            # 4 lt worker JVMs sharing the port (SO_REUSEPORT)
 *   lab-server catalog                   # every server the lab names, as TSV (lab-common's ServerCatalog)
 *   kill -TERM $pid                      # graceful stop; the counters are printed on exit
 * </pre>
 */
@Command(name = "lab-server", mixinStandardHelpOptions = true, version = ServerCatalog.VERSION,
        description = "Echo and HTTP /ping servers that show how Linux multiplexes connections.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped gracefully", "1:could not serve (port in use, bad host, ...)",
                "2:bad flags, or a JDK too old for the architecture"})
public final class LabServer implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing architecture: " + String.join(", ", Architectures.names()));
    }

    /** The server {@code args} describe ({@code lt --protocol http}), made but not bound: tests run its loop in-process. */
    public static Server newServer(String... args) {
        ServerCommand command = parse(args);
        return command.server(command.config());
    }

    /** The config {@code args} describe, parsed and checked as a command would: what tests make servers from. */
    public static ServerConfig config(String... args) {
        return parse(args).config();
    }

    private static ServerCommand parse(String... args) {
        return (ServerCommand) commandLine(args).parseArgs(args).subcommand().commandSpec().userObject();
    }

    /**
     * The command line for {@code args}, with each architecture's {@code --help} ending in the
     * mistakes it can make, one line each, and {@code --version} on each. When {@code args}
     * start with an architecture, only that one's command is built: picocli reads every
     * command's annotations by reflection, and the five others would cost every start (each of
     * an mp pool's workers too) CPU for nothing (experiments/exp-cold-start.md counts the
     * classes a start loads). Anything else ({@code --help}, a typo) gets them all, to list or suggest.
     */
    public static CommandLine commandLine(String... args) {
        CommandLine cl = new CommandLine(new LabServer());
        List<String> archs = Architectures.names();
        String first = args.length > 0 && (archs.contains(args[0]) || args[0].equals(CatalogCommand.NAME)) ? args[0] : null;
        for (String arch : archs) {
            if (first == null || first.equals(arch)) cl.addSubcommand(arch, withMistakes(Architectures.commandLine(arch)));
        }
        if (first == null || first.equals(CatalogCommand.NAME)) cl.addSubcommand(CatalogCommand.NAME, new CatalogCommand());
        for (CommandLine sub : cl.getSubcommands().values()) sub.getCommandSpec().version(cl.getCommandSpec().version());
        IParameterExceptionHandler usage = cl.getParameterExceptionHandler();
        cl.setParameterExceptionHandler((e, given) -> idleOption(e) ? 2 : usage.handleParseException(e, given));
        return cl;
    }

    /** An architecture's command line, its help ending in the mistakes it can make. */
    private static CommandLine withMistakes(CommandLine sub) {
        Arch arch = Arch.of(sub.getCommandSpec().name());
        if (arch == Arch.LT || arch == Arch.ET || arch == Arch.MP) {
            UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
            List<String> footer = new ArrayList<>(List.of(usage.footer()));
            footer.addAll(List.of(Mistake.helpLines(arch)));
            usage.footer(footer.toArray(new String[0]));
        }
        return sub;
    }

    /**
     * Says in one line, with no usage after it, that an option was given where it does not act
     * (the catalog's word, {@link ServerOptions#idle}); false for any other bad flag.
     */
    private static boolean idleOption(CommandLine.ParameterException e) {
        String message = e instanceof ServerOptions.IdleOption ? e.getMessage() : null;
        if (e instanceof UnmatchedArgumentException && !((UnmatchedArgumentException) e).getUnmatched().isEmpty()) {
            String option = ((UnmatchedArgumentException) e).getUnmatched().get(0).split("=", 2)[0];
            if (ServerCatalog.restricted(option)) message = ServerOptions.idle(option, e.getCommandLine().getCommandSpec().name());
        }
        if (message == null) return false;
        e.getCommandLine().getErr().println("error: " + message);
        return true;
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** All that {@link #main} does but exit: runs the command line, returns its exit code (tests call it in-process). */
    public static int execute(String... args) {
        return commandLine(args).execute(args);
    }
}
