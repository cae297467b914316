package niolab.server.base;

/**
 * {@code --work-ns N}: a calibrated slowdown, N nanoseconds of busy work per request, so that a
 * comparison can be shown a known difference and say whether it sees it. A server holds one
 * (null without the option) and calls it where a request is handled: for echo, each read that
 * returns bytes ({@link #perRead}); for HTTP, each request the parser completes ({@link #perRequest}).
 *
 * <pre>
 *   readWork = BusyWork.perRead(config, counters);   // null unless --protocol echo --work-ns N
 *   if (readWork != null) readWork.request();        // a final field tested once per read: nothing to pay when off
 * </pre>
 *
 * The work spins on {@link System#nanoTime()}: no sleep (the thread must stay on its CPU, as real
 * work would), no allocation. Its time, as measured, is added to {@link Counter#WORK_NS} of the
 * table it was made with: at least N per request, more when the thread was preempted meanwhile.
 */
public final class BusyWork {
    private final long nanos;
    private final Counters counters;

    private BusyWork(long nanos, Counters counters) {
        this.nanos = nanos;
        this.counters = counters;
    }

    /** An echo server's work per read that returns bytes, counted in {@code counters}; null for none (or for HTTP). */
    public static BusyWork perRead(ServerConfig config, Counters counters) {
        return config.protocol() == Protocol.ECHO ? of(config, counters) : null;
    }

    /** An HTTP server's work per request, counted in {@code counters}; null for none (or for echo). */
    public static BusyWork perRequest(ServerConfig config, Counters counters) {
        return config.protocol() == Protocol.HTTP ? of(config, counters) : null;
    }

    private static BusyWork of(ServerConfig config, Counters counters) {
        if (config.workNs() == 0) return null;
        counters.declare(Counter.WORK_NS);
        return new BusyWork(config.workNs(), counters);
    }

    /** Spins for this work's nanoseconds, and counts them. */
    public void request() {
        long start = System.nanoTime();
        long now = start;
        while (now - start < nanos) now = System.nanoTime();
        counters.add(Counter.WORK_NS, now - start);
    }
}
