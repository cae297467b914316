package niolab.server.base;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The coarse clock behind {@code --idle-timeout}, shared by every event loop ({@link EventLoop}).
 *
 * <p>Time is counted in sweeps, one about every second (more often for a timeout under a
 * second). On each event a connection stores the current sweep number: one field store, no
 * clock read and no allocation on the hot path. Each sweep walks the connections and closes
 * those whose stamp is more than {@link #idleSweeps} sweeps old; sweeps are never closer than
 * the interval, so such a connection has been silent at least the timeout (and at most one
 * interval longer). Off, it costs the loops nothing but a test of {@link #enabled}: their wait
 * has no timeout, as before.
 *
 * <pre>
 *   // on each event of a connection:   conn.lastActive = idle.sweeps;
 *   // after each wait of the loop:     if (idle.enabled &amp;&amp; idle.due()) { idle.advance(); close what idle.isIdle(...) }
 *   // the wait's timeout:              idle.waitMillis(otherTimeoutMs)   (-1: none)
 * </pre>
 */
public final class IdleSweep {
    private static final long MAX_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    public final boolean enabled;
    /** Sweeps so far: the time connections are stamped with. */
    public long sweeps;
    private final long intervalNanos;
    private final long idleSweeps;
    private final long timeoutMs;
    private long nextAt;

    public IdleSweep(Duration timeout) {
        enabled = timeout != null && !timeout.isZero() && !timeout.isNegative();
        long t = enabled ? timeout.toNanos() : 0;
        intervalNanos = enabled ? Math.min(t, MAX_INTERVAL_NANOS) : 0;
        idleSweeps = enabled ? (t + intervalNanos - 1) / intervalNanos : 0;
        timeoutMs = enabled ? timeout.toMillis() : 0;
        nextAt = System.nanoTime() + intervalNanos;
    }

    /** A sweep is due. */
    public boolean due() {
        return System.nanoTime() - nextAt >= 0;
    }

    /** Starts a sweep: the clock moves one step. */
    public void advance() {
        sweeps++;
        nextAt = System.nanoTime() + intervalNanos;
    }

    /** A connection last active at sweep {@code lastActive} has been silent at least the timeout. */
    public boolean isIdle(long lastActive) {
        return sweeps - lastActive > idleSweeps;
    }

    /**
     * The loop's wait timeout in ms, given the one it needs otherwise ({@code otherMs}, or -1
     * for none): bounded by the next sweep only while the option is on.
     */
    public long waitMillis(long otherMs) {
        if (!enabled) return otherMs;
        return WaitTimeout.sooner(otherMs, WaitTimeout.until(nextAt, 1));
    }

    /** Prints {@code <arch>: --idle-timeout closed N connections silent for T ms or more}, without string concatenation. */
    public void log(PrintStream log, String arch, int closed) {
        synchronized (log) { // one line, even when several loops of one JVM log at once
            log.print(arch);
            log.print(": --idle-timeout closed ");
            log.print(closed);
            log.print(closed == 1 ? " connection" : " connections");
            log.print(" silent for ");
            log.print(timeoutMs);
            log.println(" ms or more");
        }
    }
}
