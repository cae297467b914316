package niolab.server;

import java.util.ArrayList;
import java.util.List;
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
        subcommands = {LtCommand.class, EtCommand.class, VtCommand.class, UringCommand.class, MpCommand.class, BioCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped gracefully", "1:could not serve (port in use, bad host, ...)",
                "2:bad flags, or a JDK too old for the architecture"})
public final class LabServer implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing architecture: " + String.join(", ", spec.subcommands().keySet()));
    }

    /** The server {@code args} describe ({@code lt --protocol http}), made but not bound: tests run its loop in-process. */
    public static EventLoopServer newServer(String... args) {
        CommandLine.ParseResult parsed = commandLine().parseArgs(args);
        check(parsed);
        return ((ServerFactory) parsed.subcommand().commandSpec().userObject()).newServer();
    }

    /** The command line, with each architecture's {@code --help} ending in the mistakes it can make, one line each. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new LabServer());
        for (String arch : List.of("lt", "et", "mp")) {
            UsageMessageSpec usage = cl.getSubcommands().get(arch).getCommandSpec().usageMessage();
            List<String> footer = new ArrayList<>(List.of(usage.footer()));
            footer.addAll(List.of(Mistake.helpLines(arch)));
            usage.footer(footer.toArray(new String[0]));
        }
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().setExecutionStrategy(LabServer::checkThenRun).execute(args));
    }

    private static int checkThenRun(CommandLine.ParseResult parsed) {
        check(parsed);
        CommandLine.ParseResult server = parsed.subcommand();
        // lt, et and mp check their mistakes themselves (mp against its workers); the others have none.
        if (server != null && !MISTAKES_CHECKED_BY_COMMAND.contains(server.commandSpec().name())) {
            for (CommandLine.Model.CommandSpec mixin : server.commandSpec().mixins().values()) {
                if (mixin.userObject() instanceof ServerOptions
                        && Mistakes.refused((ServerOptions) mixin.userObject(), server.commandSpec().name())) {
                    return 2;
                }
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    private static final java.util.Set<String> MISTAKES_CHECKED_BY_COMMAND = java.util.Set.of("lt", "et", "mp");

    /** Options that depend on each other ({@code --backend} needs {@code --protocol http}) are checked once all are parsed. */
    private static void check(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            for (CommandLine.Model.CommandSpec mixin : p.commandSpec().mixins().values()) {
                if (mixin.userObject() instanceof ServerOptions) ((ServerOptions) mixin.userObject()).check();
            }
        }
    }
}
