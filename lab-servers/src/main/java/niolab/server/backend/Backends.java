package niolab.server.backend;

import static niolab.server.base.Counter.BACKEND_CALLS;
import static niolab.server.base.Counter.BACKEND_FAILURES;
import static niolab.server.base.Counter.BACKEND_ROUND_TRIPS;
import static niolab.server.base.Counter.WAKEUPS;

import java.io.PrintStream;
import niolab.server.base.BackendMode;
import niolab.server.base.BackendConfig;
import niolab.server.base.Counters;

/** Makes the backend that {@code --backend-mode} asks for, and declares the counters rows it keeps. */
public final class Backends {
    private Backends() {
    }

    /**
     * The backend of one event loop: {@code loopTransport} is how the loop posture reaches its
     * socket on this kind of loop, {@code wakeUp} ends the loop's wait from another thread.
     */
    public static <W> Backend<W> open(BackendConfig options, String logName, PrintStream log, Counters counters,
            Waiters<W> loop, RedisTransport loopTransport, Runnable wakeUp) {
        // Declared by adding a table of zeros that has them: Counters prints an extra row only if declared.
        counters.addAll(options.mode() == BackendMode.POOL
                ? new Counters(counters.waitName(), BACKEND_CALLS, BACKEND_ROUND_TRIPS, BACKEND_FAILURES, WAKEUPS)
                : new Counters(counters.waitName(), BACKEND_CALLS, BACKEND_ROUND_TRIPS, BACKEND_FAILURES));
        switch (options.mode()) {
            case LOOP:
                return new RedisPipeline<>(options, logName, log, counters, loop, loopTransport);
            case POOL:
                return new PoolBackend<>(options, logName, log, counters, loop, wakeUp);
            case BLOCKING:
                return new BlockingBackend<>(options, logName, log, counters, loop);
            default: // THREAD: vt's, refused on the loops as a bad flag before they start
                throw new IllegalArgumentException("an event loop has no --backend-mode " + options.mode());
        }
    }
}
