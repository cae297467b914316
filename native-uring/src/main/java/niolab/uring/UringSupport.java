package niolab.uring;

import static niolab.uring.IoUringConstants.*;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import niolab.epoll.Bindings;
import niolab.epoll.Errno;
import niolab.epoll.ErrnoException;

/**
 * Whether io_uring works here, and what it offers: {@link #check()} gives the one-line reason
 * when it does not, {@link #capabilities()} what a mode may use when it does. Both come from one
 * detection, made once per JVM on a small throwaway ring:
 * <ol>
 *   <li>the platform: a 64-bit Linux (this class itself needs JDK 22, for FFM);</li>
 *   <li>{@code /proc/sys/kernel/io_uring_disabled} (6.6+): 2 forbids io_uring to everyone,
 *       1 to whoever is neither in {@code io_uring_group} nor CAP_SYS_ADMIN;</li>
 *   <li>io_uring_setup with the {@link #SETUP_PREFERENCE} flag sets, most capable first:
 *       EINVAL means "older kernel, try the next", ENOSYS no io_uring at all, EPERM blocked
 *       (the sysctl, or a seccomp filter such as a container runtime's default);</li>
 *   <li>the features the lab needs (NODROP, EXT_ARG: Linux 5.11), the opcode probe, and the
 *       multishot and buffer-ring features tried for real, since no probe reports them.</li>
 * </ol>
 * {@code java --enable-native-access=ALL-UNNAMED -cp ... niolab.uring.UringSupport} prints the result.
 */
public final class UringSupport {
    public static final int MIN_JDK = 22;

    /** Tried in order; the first set the kernel accepts is the one rings use. */
    static final int[] SETUP_PREFERENCE = {
        IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,        // 6.1
        IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN
                | IORING_SETUP_TASKRUN_FLAG,                                                       // 6.0
        IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,           // 5.19
        0,
    };
    private static final int REQUIRED_FEATURES = IORING_FEAT_NODROP | IORING_FEAT_EXT_ARG;
    private static final int[] REQUIRED_OPS = {
        IORING_OP_ACCEPT, IORING_OP_RECV, IORING_OP_SEND, IORING_OP_CLOSE, IORING_OP_TIMEOUT, IORING_OP_ASYNC_CANCEL,
    };
    private static final int CAP_SYS_ADMIN = 21;
    private static final long TRIAL_WAIT_NANOS = 1_000_000_000L;

    private UringSupport() {
    }

    /** Null when io_uring is usable here; otherwise one line naming the cause. */
    public static String check() {
        return Detected.REASON;
    }

    /** What this kernel offers; throws {@link IllegalStateException} with {@link #check()}'s reason when io_uring is unusable. */
    public static UringCapabilities capabilities() {
        if (Detected.CAPABILITIES == null) throw new IllegalStateException(Detected.REASON);
        return Detected.CAPABILITIES;
    }

    public static void main(String[] args) {
        String reason = check();
        System.out.println(reason == null ? capabilities().describe() : "io_uring unavailable: " + reason);
        System.exit(reason == null ? 0 : 1);
    }

    /** Detection runs once, on first use. */
    private static final class Detected {
        static final UringCapabilities CAPABILITIES;
        static final String REASON;

        static {
            UringCapabilities found = null;
            String reason;
            try {
                reason = environmentReason();
                if (reason == null) {
                    found = detect();
                    reason = found == null ? setupReason(Errno.EINVAL) : featureReason(found);
                    if (reason != null) found = null;
                }
            } catch (ErrnoException e) {
                reason = e.call().equals("io_uring_setup") ? setupReason(e.errno()) : e.getMessage();
            } catch (RuntimeException | IOException | LinkageError e) {
                reason = failureReason(e);
            }
            CAPABILITIES = found;
            REASON = reason;
        }
    }

    /** A detection that threw: the JVM refusing native access is the one cause people can fix. */
    private static String failureReason(Throwable e) {
        Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof IllegalCallerException) {
            return "the JVM denies native access to the io_uring binding: run java with --enable-native-access=ALL-UNNAMED";
        }
        return "io_uring detection failed: " + cause;
    }

    private static String environmentReason() throws IOException {
        String platform = platformReason(Runtime.version().feature(), System.getProperty("os.name"),
                ValueLayout.ADDRESS.byteSize());
        if (platform != null) return platform;
        List<String> status = Files.readAllLines(Path.of("/proc/self/status"));
        return sysctlReason(sysctl("io_uring_disabled", 0), sysctl("io_uring_group", -1),
                inGroup(status, sysctl("io_uring_group", -1)), hasCapability(status, CAP_SYS_ADMIN));
    }

    /** The reason this JVM and OS cannot run io_uring through FFM, or null. */
    static String platformReason(int jdkFeature, String osName, long pointerSize) {
        if (jdkFeature < MIN_JDK) return "io_uring through FFM needs JDK " + MIN_JDK + " or newer (this JVM is " + jdkFeature + ")";
        if (!osName.startsWith("Linux")) return "io_uring is Linux-only (this OS is " + osName + ")";
        if (pointerSize != 8) return "io_uring here needs a 64-bit JVM";
        return null;
    }

    /** The reason kernel.io_uring_disabled forbids this process a ring, or null. */
    static String sysctlReason(long disabled, long group, boolean inGroup, boolean sysAdmin) {
        if (disabled == 2) return "io_uring is disabled on this host (sysctl kernel.io_uring_disabled=2)";
        if (disabled == 1 && !inGroup && !sysAdmin) {
            return group < 0
                    ? "io_uring is limited to CAP_SYS_ADMIN here (sysctl kernel.io_uring_disabled=1, kernel.io_uring_group=-1)"
                    : "io_uring is limited to group " + group + " here (sysctl kernel.io_uring_disabled=1) and this process is not in it";
        }
        return null;
    }

    /** The reason io_uring_setup failed with {@code errno}, for people. */
    static String setupReason(int errno) {
        return switch (errno) {
            case Errno.ENOSYS -> "this kernel has no io_uring (io_uring_setup: ENOSYS; built without CONFIG_IO_URING)";
            case Errno.EPERM -> "io_uring is not permitted here (io_uring_setup: EPERM): sysctl kernel.io_uring_disabled,"
                    + " or a seccomp filter such as a container's default profile";
            case Errno.ENOMEM -> "io_uring_setup: ENOMEM: the ring needs more locked memory than allowed (ulimit -l)";
            case Errno.EINVAL -> "this kernel's io_uring is too old for the lab (io_uring_setup: EINVAL for every flag set)";
            default -> "io_uring_setup failed: " + Errno.describe(errno, Bindings.jna()); // strerror: a cold path, once
        };
    }

    /** The reason the kernel's io_uring lacks what every mode needs, or null. */
    static String featureReason(UringCapabilities found) {
        int missing = REQUIRED_FEATURES & ~found.features();
        if (missing != 0) {
            return "io_uring on Linux " + found.kernel() + " lacks IORING_FEAT_" + describeFeatures(missing) + " (Linux 5.11+)";
        }
        for (int op : REQUIRED_OPS) {
            if (!found.probe().supports(op)) return "io_uring on Linux " + found.kernel() + " lacks IORING_OP_" + opName(op);
        }
        return null;
    }

    /**
     * {@code -Dniolab.uring.noRecvByteLimit=true}: report no recv byte limit, as a kernel before
     * 6.17 would, so that a newer kernel can run (and a test can check) the cancel that the
     * servers' backpressure falls back on there.
     */
    public static final String NO_RECV_BYTE_LIMIT = "niolab.uring.noRecvByteLimit";

    /**
     * The setup flags of an SQPOLL ring here: the best set without the task-run flags, which the
     * kernel refuses beside SQPOLL (they concern the task that submits, now a kernel thread).
     */
    public static int sqPollSetupFlags() {
        return capabilities().setupFlags()
                & ~(IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_DEFER_TASKRUN);
    }

    /** Null when this kernel lets this process set up an SQPOLL ring; otherwise one line saying why not. Tried once, on a small ring. */
    public static String sqPollReason() {
        return SqPoll.REASON;
    }

    /** The SQPOLL trial runs once, on first use: only a server asked for SQPOLL pays for its kernel thread. */
    private static final class SqPoll {
        static final String REASON = trySqPoll();
    }

    private static String trySqPoll() {
        String reason = check();
        if (reason != null) return reason;
        try (IoUring ring = IoUring.openSqPoll(4, 0, sqPollSetupFlags(), 1)) {
            return null;
        } catch (ErrnoException e) {
            return "this kernel refused an SQPOLL ring (" + e.getMessage() + ")"
                    + (e.errno() == Errno.EPERM ? ": before Linux 5.11 SQPOLL needs CAP_SYS_ADMIN" : "");
        }
    }

    /** Opens the trial ring with the best flags, then asks and tries; null when every flag set gave EINVAL. */
    private static UringCapabilities detect() throws ErrnoException {
        for (int flags : SETUP_PREFERENCE) {
            IoUring ring;
            try {
                ring = IoUring.open(4, 0, flags);
            } catch (ErrnoException e) {
                if (e.errno() == Errno.EINVAL) continue;
                throw e;
            }
            try (ring) {
                int[] multishot = tryMultishot(ring);
                return new UringCapabilities(System.getProperty("os.version"), ring.setupFlags(), ring.features(),
                        UringProbe.of(ring), multishot[0] != -Errno.EINVAL, multishot[1] != -Errno.EINVAL,
                        multishot[2] != -Errno.EINVAL && !Boolean.getBoolean(NO_RECV_BYTE_LIMIT), tryBufferRing(ring));
            }
        }
        return null;
    }

    /**
     * Multishot accept, multishot recv and multishot recv with a byte limit, aimed at the ring's
     * own fd, which is no socket: a kernel that knows the flag (or field) fails at issue
     * (-ENOTSOCK), one that does not rejects the SQE (-EINVAL). Returns the three results
     * (-EINVAL also if no completion came).
     */
    private static int[] tryMultishot(IoUring ring) throws ErrnoException {
        int[] results = {-Errno.EINVAL, -Errno.EINVAL, -Errno.EINVAL};
        ring.sq().prepareAcceptMultishot(ring.fd(), 0);
        ring.sq().prepareRecvMultishot(ring.fd(), 0, 1);
        ring.sq().prepareRecvMultishot(ring.fd(), 0, 4096, 2);
        ring.submitAndWait(3, TRIAL_WAIT_NANOS);
        ring.cq().forEach((userData, res, flags) -> results[(int) userData] = res);
        return results;
    }

    private static boolean tryBufferRing(IoUring ring) {
        try (BufferRing buffers = BufferRing.register(ring, 0, 1, 64)) {
            return true;
        } catch (ErrnoException e) {
            return false;
        }
    }

    private static long sysctl(String name, long absent) throws IOException {
        Path path = Path.of("/proc/sys/kernel", name);
        // readAllLines, not readString: a /proc file reports size 0 and readString may stop short.
        return Files.exists(path) ? Long.parseLong(Files.readAllLines(path).get(0).trim()) : absent;
    }

    /** in_group_p: the effective gid or a supplementary group, from /proc/self/status. */
    private static boolean inGroup(List<String> status, long group) {
        for (String line : status) {
            if (line.startsWith("Gid:") && field(line, 2).equals(Long.toString(group))) return true;
            if (line.startsWith("Groups:") && List.of(line.substring(7).trim().split("\\s+")).contains(Long.toString(group))) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasCapability(List<String> status, int capability) {
        for (String line : status) {
            if (line.startsWith("CapEff:")) return (Long.parseUnsignedLong(field(line, 1), 16) & (1L << capability)) != 0;
        }
        return false;
    }

    private static String field(String line, int index) {
        String[] fields = line.trim().split("\\s+");
        return index < fields.length ? fields[index] : "";
    }
}
