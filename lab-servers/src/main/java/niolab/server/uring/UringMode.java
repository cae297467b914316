package niolab.server.uring;

import java.util.Locale;
import java.util.StringJoiner;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --uring-mode}: which io_uring features the {@code uring} server uses, one step each, so
 * that what a feature buys shows in the counters and the benchmarks.
 */
public enum UringMode {
    /**
     * One accept SQE at a time, and per connection one recv into its own buffer, then the send;
     * the next recv is linked behind the send. Every request costs two SQEs, and every connection
     * ties up a buffer even while it is idle.
     */
    BASIC,
    /**
     * A multishot accept, and per connection a multishot recv that stays armed across requests,
     * into buffers the kernel picks from a shared pool when data arrives; each buffer goes back
     * with an SQE (IORING_OP_PROVIDE_BUFFERS).
     */
    MULTISHOT,
    /** As multishot, but the pool is a buffer ring: a buffer goes back with two stores, no SQE. */
    BUFRING,
    /**
     * As bufring, on a ring set up with IORING_SETUP_SQPOLL: a kernel thread takes the SQEs as
     * the loop publishes them, so io_uring_enter is left to waiting for completions (and to
     * waking that thread after it slept). The syscalls saved are paid in the thread's CPU time,
     * on another core when there is one.
     */
    SQPOLL;

    /** The name users type and the ready line shows: {@code basic}, {@code multishot}, {@code bufring}, {@code sqpoll}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Accepts the names in any case. */
    public static final class Converter implements ITypeConverter<UringMode> {
        @Override
        public UringMode convert(String value) {
            StringJoiner names = new StringJoiner(", ");
            for (UringMode m : values()) {
                if (m.name().equalsIgnoreCase(value.trim())) return m;
                names.add(m.toString());
            }
            throw new TypeConversionException("'" + value + "' is not a uring mode (" + names + ")");
        }
    }
}
