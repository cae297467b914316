package niolab.server.base;

/**
 * Work an event loop does on its own thread besides serving connections, such as a backend's
 * Redis batch, its timeouts and its reconnects. The skeleton ({@link EventLoop}) runs it:
 *
 * <pre>
 *   bind:         listen(); duty.start()
 *   each wait:    waitAndDispatch(duty.boundWait(the timers' timeout)); duty.afterWait()
 *   at the end:   duty.close(); closeEverything()
 * </pre>
 *
 * A loop has at most one; {@link #NONE} leaves the loop as it would be without.
 */
public interface LoopDuty {
    /** No duty: the wait keeps the timers' timeout, and nothing runs around it. */
    LoopDuty NONE = new LoopDuty() {
        @Override
        public void start() {
        }

        @Override
        public long boundWait(long loopMs) {
            return loopMs;
        }

        @Override
        public void afterWait() {
        }

        @Override
        public void close() {
        }
    };

    /** Once the listener is bound, before the ready line (a backend seeds its keys and connects). */
    void start();

    /** The loop's own wait timeout {@code loopMs} (-1: none), shortened if this duty is due sooner. */
    long boundWait(long loopMs);

    /** After each wait of the loop, on its thread, once the wait's events are handled. */
    void afterWait();

    /** The loop has stopped: called before its connections and descriptors are closed. */
    void close();
}
