package niolab.reports;

import java.util.Map;

/** A lab server's counters, by name, as {@link niolab.common.CountersLine#parse} read them. */
public final class ServerCounters {
    /**
     * The names a server prints its waits under, one per way of waiting (select, epoll_wait,
     * io_uring_enter, a blocking wait): the servers' {@code Counters.WAIT_NAMES}, repeated here
     * because the generator reads the line, never the servers' code.
     */
    private static final String[] WAIT_NAMES = {"selects", "epoll_waits", "enters", "waits"};

    private final Map<String, Long> values;

    public ServerCounters(Map<String, Long> values) {
        this.values = values;
    }

    /** A counter's value; 0 when the server does not count it. */
    public long get(String name) {
        return values.getOrDefault(name, 0L);
    }

    /** The waits under whichever name this server counts them ({@link #WAIT_NAMES}); 0 when it counts none. */
    public long waits() {
        for (String w : WAIT_NAMES) {
            Long waits = values.get(w);
            if (waits != null) return waits;
        }
        return 0;
    }

    /**
     * Events per wait, derived here (the printed ratio is for people and not parsed): the
     * same {@code %.2f} rounding of the same quotient the server prints.
     */
    public double eventsPerWait() {
        for (String w : WAIT_NAMES) {
            Long waits = values.get(w);
            if (waits != null) return waits == 0 ? 0.0 : (double) get("events") / waits;
        }
        return Double.NaN;
    }
}
