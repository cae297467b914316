package niolab.server;

import java.util.ArrayList;
import java.util.List;
import niolab.server.base.Mistake;
import niolab.server.base.Mistakes;
import niolab.server.base.Server;
import niolab.server.base.ServerFactory;
import niolab.server.base.ServerOptions;
import niolab.server.bio.BioCommand;
import niolab.server.et.EtCommand;
import niolab.server.lt.LtCommand;
import niolab.server.mp.MpCommand;
import niolab.server.uring.UringCommand;
import niolab.server.vt.VtCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.UsageMessageSpec;

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
 *   kill -TERM $pid                      # graceful stop; the counters are printed on exit
 * </pre>
 */
@Command(name = "lab-server", mixinStandardHelpOptions = true, version = "NIO Lab 0.1",
        description = "Echo and HTTP /ping servers that show how Linux multiplexes connections.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped gracefully", "1:could not serve (port in use, bad host, ...)",
                "2:bad flags, or a JDK too old for the architecture"})
public final class LabServer implements Runnable {
    /** The architectures, as help lists them. */
    private static final List<String> ARCHS = List.of("lt", "et", "vt", "uring", "mp", "bio");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing architecture: " + String.join(", ", spec.subcommands().keySet()));
    }

    /** The server {@code args} describe ({@code lt --protocol http}), made but not bound: tests run its loop in-process. */
    public static Server newServer(String... args) {
        CommandLine.ParseResult parsed = commandLine(args).parseArgs(args);
        check(parsed);
        CommandLine.Model.CommandSpec command = parsed.subcommand().commandSpec();
        return ((ServerFactory) command.userObject()).newServer(serverOptions(command));
    }

    /**
     * The command line for {@code args}, with each architecture's {@code --help} ending in the
     * mistakes it can make, one line each. When {@code args} start with an architecture, only
     * that one's command is built: picocli reads every command's annotations by reflection, and
     * the five others would cost every start (each of an mp pool's workers too) CPU for nothing
     * (experiments/exp-cold-start.md counts the classes a start loads). Anything else
     * ({@code --help}, a typo) gets them all, to list or suggest.
     */
    public static CommandLine commandLine(String... args) {
        CommandLine cl = new CommandLine(new LabServer());
        String first = args.length > 0 ? args[0] : "";
        for (String arch : ARCHS) {
            if (arch.equals(first) || !ARCHS.contains(first)) cl.addSubcommand(newCommand(arch));
        }
        for (String arch : List.of("lt", "et", "mp")) {
            CommandLine sub = cl.getSubcommands().get(arch);
            if (sub == null) continue;
            UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
            List<String> footer = new ArrayList<>(List.of(usage.footer()));
            footer.addAll(List.of(Mistake.helpLines(arch)));
            usage.footer(footer.toArray(new String[0]));
        }
        return cl;
    }

    private static Object newCommand(String arch) {
        switch (arch) {
            case "lt": return new LtCommand();
            case "et": return new EtCommand();
            case "vt": return new VtCommand();
            case "uring": return new UringCommand();
            case "mp": return new MpCommand();
            default: return new BioCommand();
        }
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** All that {@link #main} does but exit: runs the command line, returns its exit code (tests call it in-process). */
    public static int execute(String... args) {
        return commandLine(args).setExecutionStrategy(LabServer::checkThenRun).execute(args);
    }

    private static int checkThenRun(CommandLine.ParseResult parsed) {
        check(parsed);
        CommandLine.ParseResult server = parsed.subcommand();
        // lt, et and mp check their mistakes themselves (mp against its workers); the others have none.
        if (server != null && !MISTAKES_CHECKED_BY_COMMAND.contains(server.commandSpec().name())) {
            ServerOptions options = serverOptions(server.commandSpec());
            if (options != null && Mistakes.refused(options, server.commandSpec().name())) return 2;
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    private static final java.util.Set<String> MISTAKES_CHECKED_BY_COMMAND = java.util.Set.of("lt", "et", "mp");

    /** Options that depend on each other ({@code --backend} needs {@code --protocol http}) are checked once all are parsed. */
    private static void check(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            ServerOptions options = serverOptions(p.commandSpec());
            if (options != null) options.check();
        }
    }

    /** The {@link ServerOptions} mixed into {@code command}, or null (the top command has none). */
    private static ServerOptions serverOptions(CommandLine.Model.CommandSpec command) {
        for (CommandLine.Model.CommandSpec mixin : command.mixins().values()) {
            if (mixin.userObject() instanceof ServerOptions) return (ServerOptions) mixin.userObject();
        }
        return null;
    }
}
