package niolab.server.base;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * A failure that lasts: accepts failing for want of descriptors ({@link AcceptBackoff}), a
 * backend that is down. It is said once, when it begins, in one line; it is retried on a timer
 * whose interval doubles from a first to a longest one, so a loop never spins on it and never
 * hammers what is down; it is over when an attempt works.
 *
 * <pre>
 *   // an attempt failed:   episode.failed("redis 127.0.0.1:6379", "Connection refused", "/healthz answers 503")
 *   //                      -> "lt: redis 127.0.0.1:6379 failed (Connection refused); /healthz answers 503", once
 *   // the loop's wait:     bounded by episode.waitMillis()   (-1: not failing)
 *   // after each wait:     if (episode.retryDue()) try again
 *   // an attempt worked:   episode.over()
 * </pre>
 * Used by one thread at a time: the loop's, or any under a lock ({@code ThreadBackend}'s).
 */
public final class Episode {
    private String name;
    private final PrintStream log;
    private final long firstRetryNanos;
    private final long longestRetryNanos;
    private boolean failing;
    private long retryNanos;
    private long retryAt;

    /** {@code name} starts the line (the architecture, or one loop of several); retries from {@code firstRetryMs} doubling up to {@code longestRetryMs}. */
    public Episode(String name, PrintStream log, long firstRetryMs, long longestRetryMs) {
        this.name = name;
        this.log = log;
        this.firstRetryNanos = TimeUnit.MILLISECONDS.toNanos(firstRetryMs);
        this.longestRetryNanos = TimeUnit.MILLISECONDS.toNanos(longestRetryMs);
    }

    void rename(String name) {
        this.name = name;
    }

    /**
     * An attempt failed: the next retry is due after the current interval. Logged only if this
     * begins the episode, from the given strings without concatenating them: after EMFILE,
     * building a string may load a class, which needs the descriptor we lack.
     */
    public void failed(String what, String reason, String consequence) {
        retryNanos = failing ? Math.min(2 * retryNanos, longestRetryNanos) : firstRetryNanos;
        retryAt = System.nanoTime() + retryNanos;
        if (failing) return;
        failing = true;
        synchronized (log) { // one line, even when several loops of one JVM log at once
            log.print(name);
            log.print(": ");
            log.print(what);
            log.print(" failed (");
            log.print(reason);
            log.print("); ");
            log.println(consequence);
        }
    }

    /** An attempt worked: the episode, if any, is over. */
    public void over() {
        failing = false;
    }

    public boolean failing() {
        return failing;
    }

    /** The current retry interval, in ms. */
    public long retryMillis() {
        return TimeUnit.NANOSECONDS.toMillis(retryNanos);
    }

    /** Failing, and the retry interval has passed. */
    public boolean retryDue() {
        return failing && System.nanoTime() - retryAt >= 0;
    }

    /** The loop's wait timeout this timer needs: until the retry while failing (0 if due), else -1. */
    public long waitMillis() {
        return failing ? WaitTimeout.until(retryAt, 0) : WaitTimeout.NONE;
    }
}
