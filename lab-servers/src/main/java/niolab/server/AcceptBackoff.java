package niolab.server;

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
    private boolean paused;

    /** {@code name} starts its log line: the architecture, or one loop of several ({@code et loop2}). */
    public AcceptBackoff(String name, PrintStream log) {
        this.episode = new Episode(name, log, RETRY_MS, RETRY_MS);
    }

    void rename(String name) {
        episode.rename(name);
    }

    public boolean paused() {
        return paused;
    }

    /** Accepting failed: pause until the retry timer; logged once per episode. */
    public void pause(String call, String reason) {
        paused = true;
        episode.failed(call, reason, "pausing accepts, retrying every 100 ms");
    }

    /** The backlog is empty: the episode, if any, is over. */
    public void drained() {
        episode.over();
    }

    /** The loop's wait timeout this timer needs: the retry interval while paused, else -1 (none). */
    public long waitMillis() {
        return paused ? RETRY_MS : -1;
    }

    /** The retry is due. */
    public boolean due() {
        return paused && episode.retryDue();
    }

    public void resume() {
        paused = false;
    }
}
