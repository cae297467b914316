package niolab.bench;

/**
 * One connection's share of an open-loop {@code --rate} schedule, as wrk2 plans it: request
 * {@code j} of connection {@code k} (of {@code C}) is due at
 * {@code start + (k + j*C) / rate}, whatever happened to the requests before it. A connection
 * that stalled finds several requests overdue and sends them back to back ("catching up"); each
 * one's latency is still measured from its own intended start, which is what corrects for
 * coordinated omission.
 *
 * <pre>
 *   RateSchedule s = new RateSchedule(t0, 1000.0, 4, 1);   // 1000/s over 4 connections, this is #1
 *   s.peek();   // t0 + 1 ms
 *   s.next();   // t0 + 1 ms, and the following one (t0 + 5 ms) becomes peek()
 * </pre>
 */
public final class RateSchedule {
    private final long startNanos;
    private final double nanosPerRequest;
    private final int connections;
    private final int index;
    private long j;

    public RateSchedule(long startNanos, double ratePerSecond, int connections, int index) {
        this.startNanos = startNanos;
        this.nanosPerRequest = 1e9 / ratePerSecond;
        this.connections = connections;
        this.index = index;
    }

    /** Intended start of this connection's next request. */
    public long peek() {
        // BEGIN SOLUTION rate-schedule
        // computed from j rather than accumulated, so rounding never drifts over a long run
        return startNanos + (long) ((index + (double) j * connections) * nanosPerRequest);
        // END SOLUTION
    }

    /** Intended start of the next request, which is then taken. */
    public long next() {
        long t = peek();
        j++;
        return t;
    }

    public boolean due(long nowNanos) {
        return peek() <= nowNanos;
    }

    /** Requests taken so far. */
    public long taken() {
        return j;
    }
}
