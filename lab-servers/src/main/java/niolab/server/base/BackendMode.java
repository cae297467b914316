package niolab.server.base;

import java.util.Locale;

/** How a server calls its backend: {@code --backend-mode}. */
public enum BackendMode {
    /** A non-blocking RESP client owned by the loop: its socket is one more in the loop's wait. */
    LOOP,
    /** A blocking client (Jedis) in a thread pool; the loop hands requests off and is woken with the answers. */
    POOL,
    /** The blocking client on the loop thread: every connection waits while one request waits for Redis. */
    BLOCKING,
    /** vt's: the blocking client on the connection's own virtual thread, which parks while it waits. */
    THREAD;

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
