package niolab.server.backend;

import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import niolab.server.proto.Healthz;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The two GETs of a {@code /healthz} through Jedis, the blocking client of the pool and
 * blocking postures, written the way such code usually is: one synchronous call per key, so
 * two round trips. A failure is classified by the status it earns: 504 for a read that timed
 * out, 503 for anything else (refused, reset, an error reply).
 */
final class JedisGets {
    private final byte[][] values = new byte[HealthzKeys.KEYS.length][];
    int status;
    /** Commands sent, answered or not: this call's share of backend_round_trips. */
    int roundTrips;
    /** Why it failed, for the outage's one line. */
    String reason;
    /** The connection failed (not just an error reply): Redis may be down, and a blocking client must reconnect. */
    boolean outage;

    /** Asks Redis; never throws. */
    void run(Jedis jedis) {
        roundTrips = 0;
        try {
            for (int i = 0; i < values.length; i++) {
                roundTrips++;
                values[i] = jedis.get(HealthzKeys.KEYS[i]);
            }
            status = Healthz.Answer.OK;
            outage = false;
        } catch (JedisException e) {
            failed(e);
        }
    }

    /** Getting a connection failed, before any command. */
    void connectFailed(JedisException e) {
        roundTrips = 0;
        failed(e);
    }

    private void failed(JedisException e) {
        outage = e instanceof JedisConnectionException;
        status = outage && timedOut(e) ? Healthz.Answer.TIMEOUT : Healthz.Answer.UNAVAILABLE;
        reason = AbstractBackend.reason(e);
    }

    /** Waited past its deadline before a thread took it: 504 without asking Redis. */
    void late() {
        roundTrips = 0;
        status = Healthz.Answer.TIMEOUT;
        outage = false;
    }

    /** Fills {@code a}, the values copied into {@code scratch} (room for two {@link Healthz#MAX_VALUE_BYTES}). */
    Healthz.Answer answer(Healthz.Answer a, ByteBuffer scratch) {
        if (status != Healthz.Answer.OK) return a.failed(status);
        scratch.clear();
        int length0 = put(scratch, values[0]);
        int start1 = scratch.position();
        int length1 = put(scratch, values[1]);
        return a.ok(scratch, 0, length0, start1, length1);
    }

    /** Copies a value that fits; returns its length (-1: no such key; too long: not copied, and ok() answers 503). */
    private static int put(ByteBuffer scratch, byte[] value) {
        if (value == null) return -1;
        if (value.length <= Healthz.MAX_VALUE_BYTES) scratch.put(value);
        return value.length;
    }

    /** Gives the connection back (to its pool, or closes it); failing to is not this request's failure. */
    static void release(Jedis jedis) {
        try {
            jedis.close();
        } catch (JedisException ignored) {
            // a broken connection that could not even be closed cleanly: it is gone either way
        }
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SocketTimeoutException) return true;
        }
        return false;
    }
}
