package niolab.server.base;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import niolab.common.Durations;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --backend redis://HOST:PORT} and its companions: with them, {@code GET /healthz} makes
 * two Redis GETs and answers from their values. An argument group of {@link niolab.server.base.ServerOptions}:
 * null when {@code --backend} is absent, and the companions are refused without it.
 */
public final class BackendOptions {
    /** Where Redis listens, resolved once when the option is read: the loop never waits for a name lookup. */
    public record Address(String host, int port, InetSocketAddress resolved) {
        /** {@code host} already resolved to the literal {@code ip} (by an mp master for its workers): no lookup. */
        public static Address literal(String host, String ip, int port) {
            try {
                return new Address(host, port, new InetSocketAddress(InetAddress.getByAddress(host, InetAddress.getByName(ip).getAddress()), port));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("'" + ip + "' is not an IP address");
            }
        }

        @Override
        public String toString() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    @Option(names = "--backend", required = true, paramLabel = "redis://HOST:PORT", converter = AddressConverter.class,
            description = "Redis behind GET /healthz (two GETs per request); --protocol http only.")
    public Address address;

    /** Null until {@link #problem} sets the default: it depends on the architecture. */
    @Option(names = "--backend-mode", paramLabel = "loop|pool|blocking|thread", converter = ModeConverter.class,
            description = "How the server calls Redis: loop (a non-blocking client on the event loop, pipelined), pool"
                    + " (Jedis in --backend-threads threads, the loop woken with the answer) or blocking (Jedis on the"
                    + " loop thread: the mistake, on purpose); vt: thread (Jedis on each connection's own virtual"
                    + " thread) (default: loop; vt: thread).")
    public BackendMode mode;

    @Option(names = "--backend-timeout", defaultValue = "1s", converter = Durations.class,
            description = "A /healthz whose Redis answer takes longer gets 504 (default: ${DEFAULT-VALUE}).")
    public Duration timeout;

    @Option(names = "--backend-threads", defaultValue = "8",
            description = "Threads and pooled connections of --backend-mode pool; on vt, the pooled connections its"
                    + " connection threads share (default: ${DEFAULT-VALUE}).")
    public int threads;

    /** What the ready line adds: {@code backend loop}. */
    public String label() {
        return "backend " + mode;
    }

    /**
     * The problem with these values on {@code arch} (null: a server outside the lab's, which has
     * the loop posture), for a bad-flags message; null if there is none. Sets the posture left
     * out to the architecture's default first (mp's is its workers': its command checks again
     * with the worker architecture).
     */
    public String problem(Arch arch) {
        boolean vt = arch == Arch.VT;
        boolean mp = arch == Arch.MP;
        if (mode == null && !mp) mode = vt ? BackendMode.THREAD : BackendMode.LOOP;
        if (vt && mode != BackendMode.THREAD) {
            return "vt calls Redis from each connection's own virtual thread: --backend-mode thread, not " + mode;
        }
        if (mode == BackendMode.THREAD && !vt && !mp) {
            return "--backend-mode thread is vt's (a virtual thread per connection); " + (arch == null ? "this server" : arch)
                    + " has loop, pool and blocking";
        }
        if (timeout.isZero() || timeout.isNegative()) return "--backend-timeout must be positive";
        if (timeout.toMillis() > Integer.MAX_VALUE) return "--backend-timeout is too long";
        if (threads < 1 || threads > 1024) return "--backend-threads must be between 1 and 1024, not " + threads;
        return null;
    }

    public long timeoutNanos() {
        return timeout.toNanos();
    }

    public int timeoutMillis() {
        return (int) Math.max(1, timeout.toMillis());
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
