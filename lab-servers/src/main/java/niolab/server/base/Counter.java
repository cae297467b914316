package niolab.server.base;

/**
 * What a server counts: one row of the counters table each. The printed name is the one the
 * {@code counters:} line shows; {@link #WAITS} is printed under the architecture's own call
 * ({@code selects}, {@code epoll_waits}, {@code enters}). The rows marked {@code extra} are
 * printed only by the servers that declare them (a completion-based loop counts submissions).
 */
public enum Counter {
    ACCEPTS("accepts"),
    ACCEPT_FAILURES("accept_failures"),
    CLOSES("closes"),
    READS("reads"),
    READS_EAGAIN("reads_eagain"),
    WRITES("writes"),
    WRITES_EAGAIN("writes_eagain"),
    PARTIAL_WRITES("partial_writes"),
    BYTES_IN("bytes_in"),
    BYTES_OUT("bytes_out"),
    RESETS("resets"),
    IDLE_CLOSES("idle_closes"),
    /** Calls that waited for events: select(), epoll_wait(), io_uring_enter(). */
    WAITS("waits"),
    /** Ready keys, epoll events or completions handled across all waits. */
    EVENTS("events"),
    /** Connections open right now (a gauge, not a count: summed over loops and workers all the same). */
    LIVE(true, "live"),
    /** Submission-queue entries handed to the kernel (io_uring). */
    SUBMISSIONS(true, "submissions"),
    /** Receives that ended because every provided buffer was in use (io_uring: -ENOBUFS); re-armed when one comes back. */
    NO_BUFFERS(true, "no_buffers"),
    /** Wake-ups of a loop by another thread (a backend pool handing an answer back). */
    WAKEUPS(true, "wakeups"),
    /**
     * Listener events whose first accept found the queue empty: another loop sharing the
     * listener took the connection (the herd), or an edge queued for a connection already taken.
     */
    EMPTY_ACCEPTS(true, "empty_accepts"),
    /** Requests handed to the backend ({@code /healthz}: two Redis GETs each); in the pool posture, hand-offs to its threads. */
    BACKEND_CALLS(true, "backend_calls"),
    /** Writes of commands to the backend: one per batch on the loop, one per GET from a blocking client. */
    BACKEND_ROUND_TRIPS(true, "backend_round_trips"),
    /** Backend calls answered 503 (down, refused, malformed reply) or 504 (too late). */
    BACKEND_FAILURES(true, "backend_failures"),
    /** HTTP: connections closed after lingering (RFC 9112 9.6): answer out, sending side shut, input read and dropped. */
    LINGER_CLOSES(true, "linger_closes"),
    /** HTTP: bytes read and dropped while lingering. */
    LINGER_BYTES(true, "linger_bytes"),
    /** HTTP: lingers cut off by {@code --linger-time} or {@code --linger-bytes} before the client's end of stream. */
    LINGER_TIMEOUTS(true, "linger_timeouts"),
    /** {@code --work-ns}: nanoseconds spent in busy work, as measured (see {@link BusyWork}). */
    WORK_NS(true, "work_ns");

    /** The rows an HTTP server declares: its closes linger. */
    public static final Counter[] LINGER_ROWS = {LINGER_CLOSES, LINGER_BYTES, LINGER_TIMEOUTS};

    /** The name on the counters line. */
    public final String label;
    /** Printed only by servers that declare it. */
    public final boolean extra;

    Counter(String label) {
        this(false, label);
    }

    Counter(boolean extra, String label) {
        this.extra = extra;
        this.label = label;
    }

    private static final Counter[] ALL = values();

    /** The row printed as {@code label}, or null; every wait name maps to {@link #WAITS}. */
    public static Counter byLabel(String label) {
        for (Counter c : ALL) {
            if (c.label.equals(label)) return c;
        }
        return Counters.WAIT_NAMES.contains(label) ? WAITS : null;
    }
}
