package niolab.server.base;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * What {@code --backend} and its companions ({@link BackendOptions}) come to once parsed:
 * immutable, so that every loop of {@code --loops N} reads the same values and nothing sets a
 * default behind another's back.
 *
 * @param mode the posture; null only on an mp master, whose workers take their own architecture's default
 */
public record BackendConfig(Address address, BackendMode mode, Duration timeout, int threads) {
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

    /** The posture {@code arch} takes when {@code --backend-mode} is left out (null: a server outside the lab's). */
    static BackendMode defaultMode(Arch arch) {
        return arch == Arch.VT ? BackendMode.THREAD : arch == Arch.MP ? null : BackendMode.LOOP;
    }

    /**
     * The problem with these values on {@code arch} (null: a server outside the lab's, which has
     * the loop posture), for a bad-flags message; null if there is none. A mode left out is
     * {@code arch}'s default (mp's is its workers': its command checks again with the worker
     * architecture).
     */
    public String problem(Arch arch) {
        boolean vt = arch == Arch.VT;
        boolean mp = arch == Arch.MP;
        BackendMode mode = this.mode != null ? this.mode : defaultMode(arch);
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

    /** What the ready line adds: {@code backend loop}. */
    public String label() {
        return "backend " + mode;
    }

    public long timeoutNanos() {
        return timeout.toNanos();
    }

    public int timeoutMillis() {
        return (int) Math.max(1, timeout.toMillis());
    }
}
