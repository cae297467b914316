package niolab.server;

import niolab.server.et.EtCommand;
import niolab.server.lt.LtCommand;
import niolab.server.mp.MpCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code lab-server <arch> [options]}: the entry point of every NIO Lab server.
 *
 * <pre>
 *   lab-server lt --port 9988            # single-thread java.nio Selector (level-triggered)
 *   lab-server et --port 9988            # single-thread epoll through JNA (edge-triggered)
 *   lab-server mp --workers 4            # 4 lt worker JVMs sharing the port (SO_REUSEPORT)
 *   kill -TERM $pid                      # graceful stop; the counters are printed on exit
 * </pre>
 */
@Command(name = "lab-server", mixinStandardHelpOptions = true, version = "NIO Lab 0.1",
        description = "Echo and HTTP /ping servers that show how Linux multiplexes connections.",
        subcommands = {LtCommand.class, EtCommand.class, MpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped gracefully", "1:could not serve (port in use, bad host, ...)",
                "2:bad flags"})
public final class LabServer implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing architecture: " + String.join(", ", spec.subcommands().keySet()));
    }

    /** The server {@code args} describe ({@code lt --protocol http}), made but not bound: tests run its loop in-process. */
    public static EventLoopServer newServer(String... args) {
        CommandLine.ParseResult parsed = new CommandLine(new LabServer()).parseArgs(args);
        check(parsed);
        return ((ServerFactory) parsed.subcommand().commandSpec().userObject()).newServer();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LabServer()).setExecutionStrategy(LabServer::checkThenRun).execute(args));
    }

    private static int checkThenRun(CommandLine.ParseResult parsed) {
        check(parsed);
        return new CommandLine.RunLast().execute(parsed);
    }

    /** Options that depend on each other ({@code --backend} needs {@code --protocol http}) are checked once all are parsed. */
    private static void check(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            for (CommandLine.Model.CommandSpec mixin : p.commandSpec().mixins().values()) {
                if (mixin.userObject() instanceof ServerOptions) ((ServerOptions) mixin.userObject()).check();
            }
        }
    }
}
