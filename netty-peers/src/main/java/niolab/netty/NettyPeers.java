package niolab.netty;

import niolab.common.ServerCatalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code lab-server netty-nio|netty-epoll|netty-uring|netty-http [options]}: the Netty peers
 * the hand-written servers are measured against. A separate main in a separate jar, so that
 * lab-servers never depends on Netty; {@code bin/lab-server} sends {@code netty-*} here.
 *
 * <pre>
 *   lab-server netty-epoll --protocol http --port 9988     # the lab's parser, one event-loop thread
 *   lab-server netty-http --port 9988                       # Netty's HttpServerCodec, best transport
 *   kill -TERM $pid                                         # graceful stop; counters on exit
 * </pre>
 */
@Command(name = "lab-server", mixinStandardHelpOptions = true, version = ServerCatalog.VERSION,
        description = "Netty 4.2 peers of the lab servers: echo and HTTP /ping.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped gracefully", "1:could not serve (port in use, bad host, transport unavailable, ...)",
                "2:bad flags"})
public final class NettyPeers implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing server: " + ServerCatalog.words(ServerCatalog.named("netty"), "or"));
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** All that {@link #main} does but exit: runs the command line, returns its exit code (tests call it in-process). */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The command line with every peer as a subcommand: what main runs and docs/cli/ is rendered from. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new NettyPeers());
        for (Transport t : Transport.values()) cl.addSubcommand(t.command, new NettyCommand(t));
        cl.addSubcommand("netty-http", new NettyHttpCommand());
        for (CommandLine sub : cl.getSubcommands().values()) sub.getCommandSpec().version(ServerCatalog.VERSION);
        return cl;
    }
}
