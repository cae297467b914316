package niolab.bench;

import java.net.InetSocketAddress;
import java.time.Duration;
import niolab.common.Durations;
import picocli.CommandLine.Option;

/**
 * The load options a run and a comparison share ({@code -c}, {@code -k}, {@code --pipeline},
 * {@code --rate}, {@code --protocol}, ...): one declaration, mixed into {@link EchoBench} and
 * {@link Compare}, so that {@code compare} drives each server exactly as a run would.
 */
final class LoadOptions {
    @Option(names = {"-c", "--connections"}, defaultValue = "1",
            description = "Concurrent connections; 1 without --keepalive or --rate is the original write-up's serial client (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = {"-k", "--keepalive"}, description = "Reuse each connection for request after request (default: a fresh connection per request).")
    boolean keepAlive;

    @Option(names = "--pipeline", paramLabel = "D", defaultValue = "1",
            description = "Requests in flight per keep-alive connection; implies --keepalive (default: ${DEFAULT-VALUE}).")
    int pipeline;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "0",
            description = "Open loop: R requests/s in total on a fixed schedule; latency from each intended start "
                    + "(corrected) and from the actual send (uncorrected) (default: closed loop).")
    double rate;

    @Option(names = "--threads", paramLabel = "T",
            description = "Event-loop threads for concurrent modes (default: the core count, at most --connections).")
    Integer threads;

    @Option(names = "--protocol", defaultValue = "echo", paramLabel = "echo|http", converter = WireProtocol.Converter.class,
            description = "echo, or http: GET /ping, each response checked for status 200 and body {\"status\":\"ok\"}; "
                    + "short connections send Connection: close (default: ${DEFAULT-VALUE}).")
    WireProtocol protocol;

    @Option(names = "--path", defaultValue = "/ping", paramLabel = "PATH",
            description = "With --protocol http: the path to GET; a path other than /ping counts any 200 response with a body "
                    + "of at most 4 KiB, e.g. /healthz (default: ${DEFAULT-VALUE}).")
    String path;

    @Option(names = "--size", defaultValue = "64", description = "Payload bytes per request (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--timeout", defaultValue = "5s", converter = Durations.class,
            description = "Bound on every connect and every wait for a response (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--linger0", description = "Close client sockets with SO_LINGER 0 (RST): no TIME-WAIT on the client. For experiments only.")
    boolean linger0;

    /** The original write-up's mode ({@link LoadSpec#serial}), known before a spec is made. */
    boolean serial() {
        return connections == 1 && !keepAliveOrPipelined() && rate == 0;
    }

    boolean keepAliveOrPipelined() {
        return keepAlive || pipeline > 1;
    }

    /** The request/response protocol for {@code target}; the payload is random from {@code payloadSeed}. */
    Codec codec(String target, long payloadSeed) {
        return protocol == WireProtocol.HTTP ? new HttpPingCodec(target, keepAliveOrPipelined(), path) : new EchoCodec(Payload.random(size, payloadSeed));
    }

    LoadSpec spec(InetSocketAddress address, String target, long payloadSeed, SerialSocket.Kind serialKind) {
        return new LoadSpec(address, codec(target, payloadSeed), connections, threads == null ? Runtime.getRuntime().availableProcessors() : threads,
                keepAliveOrPipelined(), pipeline, rate, timeout.toNanos(), linger0, serialKind);
    }

    /** The first thing wrong with these options, as one line for the user, or null. */
    String problem() {
        if (connections < 1) return "--connections must be at least 1";
        if (pipeline < 1) return "--pipeline must be at least 1";
        if (threads != null && threads < 1) return "--threads must be at least 1";
        if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate)) return "--rate must be a positive number of requests per second";
        if (size < 1) return "--size must be at least 1 byte";
        if (timeout.isZero() || timeout.isNegative()) return "--timeout must be positive";
        if (!path.equals("/ping") && protocol != WireProtocol.HTTP) return "--path needs --protocol http";
        if (!path.matches("/[\\x21-\\x7e]*")) return "--path must start with / and hold no spaces or control characters, not '" + path + "'";
        return null;
    }
}
