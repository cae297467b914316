package niolab.server.backend;

import static niolab.server.base.Counter.BACKEND_CALLS;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import niolab.server.base.BackendConfig;
import niolab.server.base.Counters;
import niolab.server.base.WaitTimeout;
import niolab.server.proto.Healthz;
import niolab.server.proto.HttpConnection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@code --backend-mode blocking}, the mistake on purpose: Jedis called on the loop thread.
 * While one request waits for its two round trips to Redis, every other connection of the loop
 * waits too, {@code /ping} included; when Redis hangs, the whole server hangs for up to
 * {@code --backend-timeout} per GET. Nothing is ever parked: every answer is written at once.
 */
final class BlockingBackend<W> extends AbstractBackend<W> {
    private final ByteBuffer scratch = ByteBuffer.allocate(2 * Healthz.MAX_VALUE_BYTES);
    private final JedisGets gets = new JedisGets();
    private final HostAndPort hostAndPort;
    /** One connection, opened on first use and again after a failure (Jedis connects as it is made). */
    private Jedis jedis;

    BlockingBackend(BackendConfig options, String logName, PrintStream log, Counters counters, Waiters<W> loop) {
        super(options, logName, log, counters, loop);
        this.hostAndPort = new HostAndPort(options.address().host(), options.address().port());
    }

    @Override
    public int call(W waiter, HttpConnection http, ByteBuffer out) {
        if (resting()) return answerNow(http, out, answer.failed(Healthz.Answer.UNAVAILABLE));
        counters.inc(BACKEND_CALLS);
        try {
            if (jedis == null) jedis = new Jedis(hostAndPort, HealthzKeys.clientConfig(options.timeoutMillis())); // connects
            gets.run(jedis); // the loop stops here, for two round trips: the lesson of this posture
        } catch (JedisException e) {
            gets.connectFailed(e);
        }
        if (gets.outage) close();
        return answerNow(http, out, answerOf(gets, scratch));
    }

    @Override
    public long waitMillis() {
        return WaitTimeout.NONE;
    }

    @Override
    public void afterWait() {
        // every answer was written by call()
    }

    @Override
    public void close() {
        if (jedis != null) JedisGets.release(jedis);
        jedis = null;
    }
}
