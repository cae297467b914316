package niolab.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import java.util.concurrent.Callable;
import niolab.server.base.Protocol;
import niolab.server.base.ServerConfig;
import niolab.server.base.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code lab-server netty-nio|netty-epoll|netty-uring [options]}: the lab's own echo and HTTP
 * parser over one of Netty's transports, so that the comparison with the hand-written servers
 * is about the event loop and the transport alone. One instance per transport.
 */
@Command(mixinStandardHelpOptions = true,
        description = "The lab's echo or HTTP /ping over a Netty 4.2 transport: the reference peer of lt, et and uring.")
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
        ServerConfig config = options.config();
        boolean http = config.protocol() == Protocol.HTTP;
        return NettyServer.serve(config, transport, threads, transport.command, (ch, loop) -> addHandlers(ch, loop, http));
    }

    private static void addHandlers(Channel ch, PeerLoop loop, boolean http) {
        // A half-closed client still gets every answer; PeerHandler closes once they are out.
        ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        ch.pipeline().addLast(http ? new PingHandler(loop) : new EchoHandler(loop));
    }
}
