package niolab.server.backend;

import static niolab.server.base.Counter.BACKEND_CALLS;
import static niolab.server.base.Counter.BACKEND_FAILURES;
import static niolab.server.base.Counter.BACKEND_ROUND_TRIPS;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.NoSuchElementException;
import java.util.concurrent.locks.ReentrantLock;
import niolab.server.base.BackendConfig;
import niolab.server.base.Counter;
import niolab.server.base.Counters;
import niolab.server.base.Episode;
import niolab.server.proto.Healthz;
import niolab.server.proto.HttpConnection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@code --backend-mode thread}, vt's posture: Jedis called on the connection's own virtual
 * thread, which parks in each read from Redis while its carrier serves other connections. No
 * hand-off, no wake-up, no parked request: the code reads like {@link BlockingBackend}'s, and
 * costs the server what a blocked thread costs vt, a parked continuation.
 *
 * <pre>
 *   backend.start();                                      // seed the keys, make the first connection
 *   ThreadBackend.Caller caller = backend.newCaller(c);   // once per connection, with its counters
 *   int flags = caller.call(http, out);                   // a /healthz: answered into out, on this thread
 * </pre>
 *
 * <p>The connection threads share a pool of {@code --backend-threads} Jedis connections. One
 * Redis connection per client connection would not do: at 10k clients that is 10k sockets and
 * descriptors on both sides (Redis's default {@code maxclients} is 10000), each with its own
 * buffers in Redis, and every request a round trip of its own on a socket that is idle between
 * them. A thread waits for a pooled connection parked (commons-pool's deque waits on a
 * ReentrantLock's condition), at most {@code --backend-timeout}: then it answers 504.
 *
 * <p>Pinning: Jedis 8's connection, its streams and its protocol code hold no monitor
 * ({@code javap} shows no {@code monitorenter} and no synchronized method there), and its
 * socket is a {@code java.net.Socket}, whose JDK implementation locks with ReentrantLocks: a
 * virtual thread reading a reply parks. commons-pool2's monitors guard a few field updates,
 * never I/O, except one: it waits in {@code Object.wait} under a monitor while the pool is full
 * of connections still being made (at start, after an outage), which pins the carrier on JDK
 * 21 to 23. From JDK 24 (JEP 491) a monitor no longer pins.
 *
 * <p>The outage {@link Episode} is shared by every connection thread, so a lock guards it, taken
 * only while Redis is down or when a request finds it gone. While Redis is down, the thread that
 * finds the retry due asks again and the others answer 503 at once: a thousand connections do
 * not make a thousand reconnects.
 */
public final class ThreadBackend {
    private final BackendConfig options;
    private final JedisPool pool;
    private final String where;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}. */
    private final Episode episode;
    /** Guarded by {@link #lock}: a thread is asking a Redis that was down. */
    private boolean probing;
    /**
     * The episode's {@code failing()}, written under the lock, read without it: while Redis is
     * up, a request takes no lock at all, so the connection threads do not queue on one.
     */
    private volatile boolean down;

    public ThreadBackend(BackendConfig options, String logName, PrintStream log) {
        this.options = options;
        this.where = "redis " + options.address();
        this.episode = new Episode(logName, log, AbstractBackend.FIRST_RETRY_MS, AbstractBackend.LONGEST_RETRY_MS);
        this.pool = HealthzKeys.pool(options);
    }

    /** The counters rows this posture keeps, for the server to declare. */
    public static Counter[] rows() {
        return new Counter[] {BACKEND_CALLS, BACKEND_ROUND_TRIPS, BACKEND_FAILURES};
    }

    /**
     * Seeds the keys, then asks once from this thread: the Jedis and pool classes are
     * initialized here rather than on a virtual thread, where a class initializer pins its
     * carrier and makes every other thread needing the class wait pinned. The outage path runs
     * once here too, before anything can fail: its classes would otherwise be initialized by
     * the connections that first see Redis go away, all at once. A Redis that is down begins
     * the episode, not a failure to start.
     */
    public void start() {
        Caller first = newCaller(new Counters("waits"));
        first.gets.connectFailed(new JedisConnectionException("not asked yet"));
        try {
            HealthzKeys.seed(options.address(), options.timeoutMillis());
        } catch (JedisException e) {
            lock.lock();
            try {
                episode.failed(where, AbstractBackend.reason(e), AbstractBackend.WHILE_DOWN);
                down = true;
            } finally {
                lock.unlock();
            }
            return;
        }
        first.ask();
    }

    /** What one connection's thread needs to ask, made once per connection: {@code counters} is its table. */
    public Caller newCaller(Counters counters) {
        return new Caller(counters);
    }

    /** One connection's asker, used by its thread only. */
    public final class Caller {
        private final JedisGets gets = new JedisGets();
        private final ByteBuffer scratch = ByteBuffer.allocate(2 * Healthz.MAX_VALUE_BYTES);
        private final Healthz.Answer answer = new Healthz.Answer();
        private final Counters counters;

        private Caller(Counters counters) {
            this.counters = counters;
        }

        /**
         * The owed {@code /healthz} of {@code http}, answered into {@code out} (room for
         * {@link Healthz#MAX_RESPONSE_BYTES}) on the calling thread; returns the flags of {@link Healthz#write}.
         */
        public int call(HttpConnection http, ByteBuffer out) {
            Healthz.Answer a;
            if (mayAsk()) {
                counters.inc(BACKEND_CALLS);
                ask();
                counters.add(BACKEND_ROUND_TRIPS, gets.roundTrips);
                a = gets.answer(answer, scratch);
            } else {
                a = answer.failed(Healthz.Answer.UNAVAILABLE); // down, and not due for a retry
            }
            if (a.status() != Healthz.Answer.OK) counters.inc(BACKEND_FAILURES);
            return Healthz.write(out, http, a);
        }

        /** The two GETs on a pooled connection: the virtual thread parks in each read, its carrier free. */
        private void ask() {
            Jedis jedis = null;
            try {
                jedis = pool.getResource(); // parks while every pooled connection is lent
                gets.run(jedis);
            } catch (JedisException e) {
                if (e.getCause() instanceof NoSuchElementException) gets.late(); // no connection free within the timeout
                else gets.connectFailed(e);
            }
            if (jedis != null) JedisGets.release(jedis);
            if (gets.outage) pool.clear(); // the idle connections went down with this one: do not let each fail in turn
            ended(gets);
        }
    }

    /** Whether to ask Redis: always while it is up; while down, one thread when the retry is due. */
    private boolean mayAsk() {
        if (!down) return true;
        lock.lock();
        try {
            if (!episode.failing()) return true;
            if (probing || !episode.retryDue()) return false;
            probing = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** An ask ended: an outage begins or goes on (one line when it begins), or an answer ends it. */
    private void ended(JedisGets gets) {
        if (!down && !gets.outage) return; // up, and still up: the common case, without the lock
        lock.lock();
        try {
            probing = false;
            if (gets.outage) episode.failed(where, gets.reason, AbstractBackend.WHILE_DOWN);
            else if (gets.status == Healthz.Answer.OK) episode.over();
            down = episode.failing();
        } finally {
            lock.unlock();
        }
    }

    public void close() {
        pool.close();
    }
}
