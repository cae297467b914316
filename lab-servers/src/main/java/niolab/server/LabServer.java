package niolab.server;

import java.util.ArrayList;
import java.util.List;
import niolab.server.base.Arch;
import niolab.server.base.Mistake;
import niolab.server.base.Server;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
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
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing architecture: " + String.join(", ", spec.subcommands().keySet()));
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
     * mistakes it can make, one line each. When {@code args} start with an architecture, only
     * that one's command is built: picocli reads every command's annotations by reflection, and
     * the five others would cost a start about 100 ms of CPU for nothing. Anything else
     * ({@code --help}, a typo) gets them all, to list or suggest.
     */
    public static CommandLine commandLine(String... args) {
        CommandLine cl = new CommandLine(new LabServer());
        Arch first = args.length > 0 ? Arch.of(args[0]) : null;
        for (Arch arch : Arch.values()) {
            if (first == null || first == arch) cl.addSubcommand(newCommand(arch));
        }
        for (Arch arch : List.of(Arch.LT, Arch.ET, Arch.MP)) {
            CommandLine sub = cl.getSubcommands().get(arch.label);
            if (sub == null) continue;
            UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
            List<String> footer = new ArrayList<>(List.of(usage.footer()));
            footer.addAll(List.of(Mistake.helpLines(arch)));
            usage.footer(footer.toArray(new String[0]));
        }
        return cl;
    }

    /** The registry: the command of each architecture, in the order help lists them. */
    private static ServerCommand newCommand(Arch arch) {
        switch (arch) {
            case LT: return new LtCommand();
            case ET: return new EtCommand();
            case VT: return new VtCommand();
            case URING: return new UringCommand();
            case MP: return new MpCommand();
            case BIO: return new BioCommand();
            default: throw new IllegalArgumentException("no command for " + arch);
        }
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** All that {@link #main} does but exit: runs the command line, returns its exit code (tests call it in-process). */
    public static int execute(String... args) {
        return commandLine(args).execute(args);
    }
}
