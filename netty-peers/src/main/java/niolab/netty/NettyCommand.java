package niolab.netty;

import java.util.concurrent.Callable;
import niolab.server.ServerOptions;
import niolab.server.ServerRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lab-server netty-nio|netty-epoll [options]}: one instance per transport. */
@Command(mixinStandardHelpOptions = true,
        description = "Netty 4.2 echo or HTTP /ping server, the reference peer (level-triggered on both transports).")
final class NettyCommand implements Callable<Integer> {
    private final Transport transport;

    @Mixin
    ServerOptions options;

    @Option(names = "--threads", defaultValue = "1", description = "Event-loop threads (default: ${DEFAULT-VALUE}, like lt and et).")
    int threads;

    NettyCommand(Transport transport) {
        this.transport = transport;
    }

    @Override
    public Integer call() {
        return ServerRunner.run(new NettyServer(options, transport, threads), options);
    }
}
