package niolab.server.backend;

import static niolab.server.base.Counter.BACKEND_FAILURES;
import static niolab.server.base.Counter.BACKEND_ROUND_TRIPS;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import niolab.server.base.BackendConfig;
import niolab.server.base.Counters;
import niolab.server.base.Episode;
import niolab.server.proto.Healthz;
import niolab.server.proto.HttpConnection;
import redis.clients.jedis.exceptions.JedisException;

/**
 * What the three postures share: the options, the loop's counters and its {@link Waiters}, the
 * outage {@link Episode} (one line when Redis goes away, retries from 100 ms doubling to 1 s),
 * the seeding at start, and the two ways an answer leaves: now, into the output buffer, or
 * later, through the loop.
 */
abstract class AbstractBackend<W> implements Backend<W> {
    static final long FIRST_RETRY_MS = 100;
    static final long LONGEST_RETRY_MS = 1000;
    static final String WHILE_DOWN = "/healthz answers 503 until it is back, retrying at least every 1000 ms";

    final BackendConfig options;
    final Counters counters;
    final Episode episode;
    /** The one answer object, refilled for each answer: the loop consumes it before the next. */
    final Healthz.Answer answer = new Healthz.Answer();
    private final Waiters<W> loop;
    private final String where;

    AbstractBackend(BackendConfig options, String logName, PrintStream log, Counters counters, Waiters<W> loop) {
        this.options = options;
        this.counters = counters;
        this.loop = loop;
        this.where = "redis " + options.address();
        this.episode = new Episode(logName, log, FIRST_RETRY_MS, LONGEST_RETRY_MS);
    }

    /** Seeds the keys; a Redis that is down now begins the episode, and the loop serves on. */
    @Override
    public void start() {
        try {
            HealthzKeys.seed(options.address(), options.timeoutMillis());
        } catch (JedisException e) {
            failed(reason(e));
        }
    }

    /** An attempt failed: one line if this begins an outage; the episode's timer says when to try again. */
    final void failed(String reason) {
        episode.failed(where, reason, WHILE_DOWN);
    }

    /** Down, and not yet due for a retry: a blocking posture answers 503 at once, without asking. */
    final boolean resting() {
        return episode.failing() && !episode.retryDue();
    }

    /** A blocking client's two GETs are done: count them, keep the episode, and fill the answer. */
    final Healthz.Answer answerOf(JedisGets gets, ByteBuffer scratch) {
        counters.add(BACKEND_ROUND_TRIPS, gets.roundTrips);
        if (gets.outage) {
            failed(gets.reason);
        } else if (gets.status == Healthz.Answer.OK) {
            episode.over();
        }
        return gets.answer(answer, scratch);
    }

    /** The answer goes into the output buffer now; returns the flags of {@link Healthz#write}. */
    final int answerNow(HttpConnection http, ByteBuffer out, Healthz.Answer a) {
        if (a.status() != Healthz.Answer.OK) counters.inc(BACKEND_FAILURES);
        return Healthz.write(out, http, a);
    }

    /** The answer to a parked request goes back through the loop. */
    final void answerLater(W waiter, long generation, Healthz.Answer a) {
        if (a.status() != Healthz.Answer.OK) counters.inc(BACKEND_FAILURES);
        loop.resume(waiter, generation, a);
    }

    /** The innermost message of a failure: {@code Connection refused}, {@code Read timed out}. */
    static String reason(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
    }
}
