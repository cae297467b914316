package niolab.server.backend;

import static niolab.server.base.Counter.BACKEND_CALLS;
import static niolab.server.base.Counter.WAKEUPS;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import niolab.server.base.BackendConfig;
import niolab.server.base.Counters;
import niolab.server.base.WaitTimeout;
import niolab.server.proto.Healthz;
import niolab.server.proto.HttpConnection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@code --backend-mode pool}: Jedis in a fixed pool of {@code --backend-threads} threads, each
 * with a pooled connection. The loop hands a request off ({@code backend_calls}) and goes on;
 * the thread makes its two blocking GETs, queues the answer and wakes the loop
 * ({@code wakeups}: selector.wakeup() on lt, the eventfd on et), and the loop, after its wait,
 * takes the answers back and writes them.
 *
 * <p>A wake-up costs a system call on both sides, so threads finishing while the loop is still
 * awake do not ask again: the first sets {@code wakeRequested}, the loop clears it before it
 * takes the queue, and whatever comes after the clearing asks anew. Each hand-off allocates
 * (the task, Jedis's replies): this posture is the common way, not the allocation-free one.
 */
final class PoolBackend<W> extends AbstractBackend<W> {
    private final ByteBuffer scratch = ByteBuffer.allocate(2 * Healthz.MAX_VALUE_BYTES);
    private final ConcurrentLinkedQueue<Call> answered = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private final Runnable wakeUp;
    private final ExecutorService threads;
    private final JedisPool pool;

    /** {@code wakeUp} ends the loop's wait from another thread. */
    PoolBackend(BackendConfig options, String logName, PrintStream log, Counters counters, Waiters<W> loop, Runnable wakeUp) {
        super(options, logName, log, counters, loop);
        this.wakeUp = wakeUp;
        this.pool = HealthzKeys.pool(options); // a connection per thread: none ever waits for one
        AtomicInteger n = new AtomicInteger();
        this.threads = new ThreadPoolExecutor(options.threads(), options.threads(), 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, logName + "-backend-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** One hand-off: run on a pool thread, then queued back to the loop. */
    private final class Call implements Runnable {
        final W waiter;
        final long generation;
        final long deadline;
        final JedisGets gets = new JedisGets();

        Call(W waiter, long generation, long deadline) {
            this.waiter = waiter;
            this.generation = generation;
            this.deadline = deadline;
        }

        @Override
        public void run() {
            Jedis jedis = null;
            if (System.nanoTime() - deadline >= 0) {
                gets.late(); // queued behind slow calls until too late to be worth asking
            } else {
                try {
                    jedis = pool.getResource();
                    gets.run(jedis);
                } catch (JedisException e) {
                    gets.connectFailed(e);
                }
            }
            answered.offer(this);
            if (wakeRequested.compareAndSet(false, true)) wakeUp.run();
            if (jedis != null) JedisGets.release(jedis); // after answering: giving back a broken connection may wait on it
            if (gets.outage) pool.clear(); // the idle connections went down with this one: do not let each fail in turn
        }
    }

    @Override
    public int call(W waiter, HttpConnection http, ByteBuffer out) {
        if (resting()) return answerNow(http, out, answer.failed(Healthz.Answer.UNAVAILABLE));
        counters.inc(BACKEND_CALLS);
        threads.execute(new Call(waiter, http.generation(), System.nanoTime() + options.timeoutNanos()));
        return PARKED;
    }

    /** The loop is awake: take back every answer the threads have queued. */
    @Override
    public void afterWait() {
        if (wakeRequested.getAndSet(false)) counters.inc(WAKEUPS);
        Call done;
        while ((done = answered.poll()) != null) answerLater(done.waiter, done.generation, answerOf(done.gets, scratch));
    }

    @Override
    public long waitMillis() {
        return WaitTimeout.NONE; // the threads wake the loop; an outage's retry is checked when a request comes
    }

    @Override
    public void close() {
        threads.shutdownNow();
        pool.close();
    }
}
