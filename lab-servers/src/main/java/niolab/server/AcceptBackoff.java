package niolab.server;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * An accept-failure episode (EMFILE, ENFILE, ENOBUFS...): stop accepting, say so once, retry on
 * a timer. Never at once: the pending connections keep the listener ready, so a loop that
 * retried straight away would spin a core while nothing can change.
 *
 * <pre>
 *   // accept failed:            backoff.pause(...)           (logs only the episode's first failure)
 *   // the backlog is drained:   backoff.drained()            (the episode is over)
 *   // the loop's wait timeout:  backoff.waitMillis()         (-1 while accepting normally)
 *   // after each wait:          if (backoff.due()) { backoff.resume(); accept again }
 * </pre>
 * The episode ends when the backlog is drained, not at the first accept that works: freed
 * descriptors let a few connections in, then accept fails again, and that is the same episode.
 */
public final class AcceptBackoff {
    public static final long RETRY_MS = 100;

    private String name;
    private final PrintStream log;
    /** MISTAKE no-accept-backoff: no timer and no episode, every failure retried at once and logged. */
    private final boolean retryAtOnce;
    private final long retryMs;
    private boolean paused;
    private long retryAt;
    private boolean failing;

    /** {@code name} starts its log line: the architecture, or one loop of several ({@code et loop2}). */
    public AcceptBackoff(String name, PrintStream log) {
        this(name, log, false);
    }

    /** {@code retryAtOnce}: the no-accept-backoff mistake. */
    public AcceptBackoff(String name, PrintStream log, boolean retryAtOnce) {
        this.name = name;
        this.log = log;
        this.retryAtOnce = retryAtOnce;
        this.retryMs = retryAtOnce ? 0 : RETRY_MS; // MISTAKE no-accept-backoff: retried on the loop's next turn: a spin
    }

    void rename(String name) {
        this.name = name;
    }

    public boolean paused() {
        return paused;
    }

    /**
     * Accepting failed: pause until the retry timer. Logged once per episode, from constant
     * strings only: concatenation may load classes, which needs the descriptors we lack.
     */
    public void pause(String call, String reason) {
        paused = true;
        retryAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(retryMs);
        if (failing && !retryAtOnce) return; // MISTAKE no-accept-backoff: a line per failure, thousands a second
        failing = true;
        synchronized (log) { // one line, even when several loops of one JVM log at once
            log.print(name);
            log.print(": ");
            log.print(call);
            log.print(" failed (");
            log.print(reason);
            log.println(retryAtOnce ? "); retrying at once" : "); pausing accepts, retrying every 100 ms");
        }
    }

    /** The backlog is empty: the episode, if any, is over. */
    public void drained() {
        failing = false;
    }

    /** The loop's wait timeout this timer needs: the retry interval while paused, else -1 (none). */
    public long waitMillis() {
        return paused ? retryMs : -1;
    }

    /** The retry is due. */
    public boolean due() {
        return paused && System.nanoTime() - retryAt >= 0;
    }

    public void resume() {
        paused = false;
    }
}
