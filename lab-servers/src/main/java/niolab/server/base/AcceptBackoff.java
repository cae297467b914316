package niolab.server.base;

import java.io.PrintStream;

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
 * The one line and the timer are an {@link Episode}'s, with a fixed retry interval.
 */
public final class AcceptBackoff {
    public static final long RETRY_MS = 100;

    private final Episode episode;
    /** MISTAKE no-accept-backoff: no timer and no episode, every failure retried at once and logged. */
    private final boolean retryAtOnce;
    private final long retryMs;
    private boolean paused;

    /** {@code name} starts its log line: the architecture, or one loop of several ({@code et loop2}). */
    public AcceptBackoff(String name, PrintStream log) {
        this(name, log, false);
    }

    /** {@code retryAtOnce}: the no-accept-backoff mistake. */
    public AcceptBackoff(String name, PrintStream log, boolean retryAtOnce) {
        this.retryAtOnce = retryAtOnce;
        this.retryMs = retryAtOnce ? 0 : RETRY_MS; // MISTAKE no-accept-backoff: retried on the loop's next turn: a spin
        this.episode = new Episode(name, log, retryMs, retryMs);
    }

    void rename(String name) {
        episode.rename(name);
    }

    public boolean paused() {
        return paused;
    }

    /**
     * Accepting failed: pause until the retry timer; logged once per episode, from constant
     * strings only (see {@link Episode#failed}).
     */
    public void pause(String call, String reason) {
        paused = true;
        if (retryAtOnce) {
            episode.over(); // MISTAKE no-accept-backoff: each failure a new episode, a line each, thousands a second
            episode.failed(call, reason, "retrying at once");
            return;
        }
        episode.failed(call, reason, "pausing accepts, retrying every 100 ms");
    }

    /** The backlog is empty: the episode, if any, is over. */
    public void drained() {
        episode.over();
    }

    /** The loop's wait timeout this timer needs: the retry interval while paused, else -1 (none). */
    public long waitMillis() {
        return paused ? retryMs : WaitTimeout.NONE;
    }

    /** The retry is due. */
    public boolean due() {
        return paused && episode.retryDue();
    }

    public void resume() {
        paused = false;
    }
}
