package niolab.server.base;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import niolab.common.Durations;
import niolab.server.base.BackendConfig.Address;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --backend redis://HOST:PORT} and its companions: with them, {@code GET /healthz} makes
 * two Redis GETs and answers from their values. An argument group of {@link niolab.server.base.ServerOptions}:
 * null when {@code --backend} is absent, and the companions are refused without it. What the
 * servers take is its immutable value, {@link #config}, as ServerOptions yields ServerConfig.
 */
public final class BackendOptions {
    @Option(names = "--backend", required = true, paramLabel = "redis://HOST:PORT", converter = AddressConverter.class,
            description = "Redis behind GET /healthz (two GETs per request); --protocol http only.")
    private Address address;

    /** Null when left out: the default depends on the architecture ({@link #config}). */
    @Option(names = "--backend-mode", paramLabel = "loop|pool|blocking|thread", converter = ModeConverter.class,
            description = "How the server calls Redis: loop (a non-blocking client on the event loop, pipelined), pool"
                    + " (Jedis in --backend-threads threads, the loop woken with the answer) or blocking (Jedis on the"
                    + " loop thread: the mistake, on purpose); vt: thread (Jedis on each connection's own virtual"
                    + " thread) (default: loop; vt: thread).")
    private BackendMode mode;

    @Option(names = "--backend-timeout", defaultValue = "1s", converter = Durations.class,
            description = "A /healthz whose Redis answer takes longer gets 504 (default: ${DEFAULT-VALUE}).")
    private Duration timeout;

    @Option(names = "--backend-threads", defaultValue = "8",
            description = "Threads and pooled connections of --backend-mode pool; on vt, the pooled connections its"
                    + " connection threads share (default: ${DEFAULT-VALUE}).")
    private int threads;

    /** These values on {@code arch}, the posture left out set to its default (an mp master's: left to its workers). */
    public BackendConfig config(Arch arch) {
        return new BackendConfig(address, mode != null ? mode : BackendConfig.defaultMode(arch), timeout, threads);
    }

    /** {@code redis://HOST:PORT}, the port 6379 if left out. */
    public static final class AddressConverter implements ITypeConverter<Address> {
        @Override
        public Address convert(String value) {
            URI uri;
            try {
                uri = new URI(value.trim());
            } catch (URISyntaxException e) {
                throw new TypeConversionException("'" + value + "' is not redis://HOST:PORT");
            }
            if (!"redis".equals(uri.getScheme()) || uri.getHost() == null || uri.getUserInfo() != null
                    || !(uri.getRawPath() == null || uri.getRawPath().isEmpty()) || uri.getRawQuery() != null) {
                throw new TypeConversionException("'" + value + "' is not redis://HOST:PORT");
            }
            String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
            int port = uri.getPort() < 0 ? 6379 : uri.getPort();
            try {
                return new Address(host, port, new InetSocketAddress(InetAddress.getByName(host), port));
            } catch (UnknownHostException e) {
                throw new TypeConversionException("cannot resolve the backend host '" + host + "'");
            }
        }
    }

    /** {@code loop}, {@code pool}, {@code blocking} or {@code thread}, in any case. */
    public static final class ModeConverter implements ITypeConverter<BackendMode> {
        @Override
        public BackendMode convert(String value) {
            try {
                return BackendMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not a backend mode (loop, pool, blocking or thread)");
            }
        }
    }
}
