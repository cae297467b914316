package niolab.server.base;

import java.util.concurrent.TimeUnit;

/**
 * A loop's wait timeout in milliseconds, where {@link #NONE} (-1, as for {@code epoll_wait})
 * means none: block until an event. Each timer (the accept backoff, the idle sweep, the oldest
 * linger, a backend) says how long it allows, and the wait takes the sooner of them:
 *
 * <pre>
 *   long ms = WaitTimeout.sooner(otherMs, WaitTimeout.until(deadlineNanos, 0));
 * </pre>
 */
public final class WaitTimeout {
    /** No timeout: wait until an event comes. */
    public static final long NONE = -1;

    private WaitTimeout() {
    }

    /** The sooner of two timeouts, either of which may be {@link #NONE}. */
    public static long sooner(long a, long b) {
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    /**
     * The milliseconds from now to {@code deadlineNanos} (a {@link System#nanoTime} value),
     * rounded up so that the wait never ends before the deadline, and at least {@code minMs}.
     */
    public static long until(long deadlineNanos, long minMs) {
        return Math.max(minMs, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime() + 999_999));
    }
}
