package niolab.netty;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import java.util.concurrent.Callable;
import niolab.server.base.Protocol;
import niolab.server.base.ServerConfig;
import niolab.server.base.ServerOptions;
import niolab.server.proto.HttpRequestParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code lab-server netty-http [--transport nio|epoll|uring] [options]}: {@code /ping} as Netty
 * users deploy it, with Netty's own HTTP codec, where netty-nio, netty-epoll and netty-uring
 * run the lab's parser. Between the two, the codec's cost shows.
 *
 * <p>The pipeline is the common one: {@code HttpServerCodec}, {@code HttpServerKeepAliveHandler},
 * then the handler ({@link CodecPingHandler}). No {@code HttpObjectAggregator}: it is for
 * handlers that need the whole body, and {@code /ping} ignores bodies; Netty's hello-world
 * example and the TechEmpower Netty entry leave it out too.
 *
 * <p>Netty's decoder defaults stay, except where the lab's HTTP rules differ: the request line
 * and header limits are the lab's 8 KiB head limit, so an oversize head gets 431 (Netty counts
 * the two apart, so a head passes with up to 8 KiB of each), and chunked requests are refused
 * with 400, as the lab's parser refuses any {@code Transfer-Encoding}. Neither touches the
 * path a benchmark's {@code GET /ping} takes.
 */
@Command(mixinStandardHelpOptions = true,
        description = "HTTP /ping with Netty 4.2's HttpServerCodec, as Netty users write it.")
final class NettyHttpCommand implements Callable<Integer> {
    private static final HttpDecoderConfig DECODER = new HttpDecoderConfig()
            .setMaxInitialLineLength(HttpRequestParser.MAX_HEAD_BYTES)
            .setMaxHeaderSize(HttpRequestParser.MAX_HEAD_BYTES)
            .setChunkedSupported(false);

    @Spec
    CommandSpec spec;

    @Mixin
    ServerOptions options;

    @Option(names = "--threads", defaultValue = "1", description = "Event-loop threads (default: ${DEFAULT-VALUE}, like lt and et).")
    int threads;

    @Option(names = "--transport", converter = TransportConverter.class,
            description = "nio, epoll or uring (default: epoll where it can run, else nio).")
    Transport transport;

    @Override
    public Integer call() {
        ServerConfig config = options.config();
        if (config.protocol() != Protocol.HTTP) {
            if (spec.commandLine().getParseResult().hasMatchedOption("--protocol")) {
                throw new ParameterException(spec.commandLine(), "netty-http speaks only http");
            }
            config = config.withProtocol(Protocol.HTTP);
        }
        Transport t = transport != null ? transport
                : Transport.EPOLL.unavailabilityCause() == null ? Transport.EPOLL : Transport.NIO;
        return NettyServer.serve(config, t, threads, "netty-http: " + t, NettyHttpCommand::addHandlers);
    }

    private static void addHandlers(Channel ch, PeerLoop loop) {
        ch.pipeline().addLast(new HttpServerCodec(DECODER), new HttpServerKeepAliveHandler(), new CodecPingHandler(loop.requestWork));
    }

    /** Accepts {@code nio}, {@code epoll} and {@code uring} in any case. */
    static final class TransportConverter implements ITypeConverter<Transport> {
        @Override
        public Transport convert(String value) {
            for (Transport t : Transport.values()) {
                if (t.toString().equalsIgnoreCase(value.trim())) return t;
            }
            throw new TypeConversionException("'" + value + "' is not a transport (nio, epoll or uring)");
        }
    }
}
