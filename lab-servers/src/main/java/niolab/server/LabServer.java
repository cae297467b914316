package niolab.server;

import niolab.server.et.EtCommand;
import niolab.server.lt.LtCommand;
import niolab.server.mp.MpCommand;
import niolab.server.uring.UringCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code lab-server <arch> [options]}: the entry point of every NIO Lab server.
 *
 * <pre>
 *   lab-server lt --port 9988            # single-thread java.nio Selector (level-triggered)
 *   lab-server et --port 9988            # single-thread epoll through JNA (edge-triggered)
 *   lab-server uring --port 9988         # single-thread io_uring through FFM (completion-based, JDK 22+)
 *   lab-server mp --workers 4            # 4 lt worker JVMs sharing the port (SO_REUSEPORT)
 *   kill -TERM $pid                      # graceful stop; the counters are printed on exit
 * </pre>
 */
@Command(name = "lab-server", mixinStandardHelpOptions = true, version = "NIO Lab 0.1",
        description = "Echo and HTTP /ping servers that show how Linux multiplexes connections.",
        subcommands = {LtCommand.class, EtCommand.class, UringCommand.class, MpCommand.class},
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
        return ((ServerFactory) parsed.subcommand().commandSpec().userObject()).newServer();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LabServer()).execute(args));
    }
}
