package niolab.uring;

/**
 * A suggested encoding of an SQE's 64-bit user_data, so that a completion names its operation
 * and connection without a lookup table: {@code | op: 8 | generation: 24 | fd: 32 |}.
 *
 * <p>The generation guards against fd reuse: after a close, the kernel may hand the same fd to
 * the next accept while a completion for the old connection (a cancelled recv, say) is still
 * in the CQ. A loop that bumps the connection's generation on close and compares it on each
 * completion drops the stale one instead of feeding it to the new connection.
 */
public final class UserData {
    private static final int GENERATION_MASK = 0xFF_FFFF;

    private UserData() {
    }

    /** {@code op} in 0..255, {@code generation} taken modulo 2^24, {@code fd} ≥ -1. */
    public static long of(int op, int generation, int fd) {
        return (long) (op & 0xFF) << 56 | (long) (generation & GENERATION_MASK) << 32 | (fd & 0xFFFF_FFFFL);
    }

    public static int op(long userData) {
        return (int) (userData >>> 56);
    }

    public static int generation(long userData) {
        return (int) (userData >>> 32) & GENERATION_MASK;
    }

    public static int fd(long userData) {
        return (int) userData;
    }
}
