package niolab.server.backend;

import java.nio.charset.StandardCharsets;
import niolab.server.base.BackendConfig;
import niolab.server.proto.Healthz;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/**
 * The two Redis keys behind {@code /healthz}, one per {@link Healthz#FIELDS field}
 * ({@code niolab:release}, {@code niolab:region}), the values a server seeds them with at start,
 * and the two GETs in RESP as the loop posture sends them: one write, two commands.
 */
final class HealthzKeys {
    static final byte[][] KEYS = new byte[Healthz.FIELDS.length][];
    static final byte[][] SEED_VALUES = {ascii("0.1.0"), ascii("local")};
    /** {@code GET niolab:release} and {@code GET niolab:region}, as RESP arrays of bulk strings. */
    static final byte[] GETS;

    static {
        StringBuilder gets = new StringBuilder();
        for (int i = 0; i < KEYS.length; i++) {
            String key = "niolab:" + Healthz.FIELDS[i];
            KEYS[i] = ascii(key);
            gets.append("*2\r\n$3\r\nGET\r\n$").append(key.length()).append("\r\n").append(key).append("\r\n");
        }
        GETS = ascii(gets.toString());
    }

    private HealthzKeys() {
    }

    /** SETs both keys, once, at start (idempotent: every loop and worker seeds the same values). */
    static void seed(BackendConfig.Address address, int timeoutMs) {
        try (Jedis jedis = new Jedis(new HostAndPort(address.host(), address.port()), clientConfig(timeoutMs))) {
            for (int i = 0; i < KEYS.length; i++) jedis.set(KEYS[i], SEED_VALUES[i]);
        }
    }

    /**
     * Jedis's settings: both its connect and its read bounded by {@code --backend-timeout}, and
     * no CLIENT SETINFO round trips when it connects (the loop posture sends none either).
     */
    static DefaultJedisClientConfig clientConfig(int timeoutMs) {
        return DefaultJedisClientConfig.builder().connectionTimeoutMillis(timeoutMs).socketTimeoutMillis(timeoutMs)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).build();
    }

    /**
     * {@code --backend-threads} pooled connections with {@link #clientConfig}; a borrower waits
     * for a free one at most {@code --backend-timeout}.
     */
    static JedisPool pool(BackendConfig options) {
        GenericObjectPoolConfig<Jedis> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(options.threads());
        config.setMaxIdle(options.threads());
        config.setMaxWait(options.timeout());
        config.setJmxEnabled(false);
        return new JedisPool(config, new HostAndPort(options.address().host(), options.address().port()),
                clientConfig(options.timeoutMillis()));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
