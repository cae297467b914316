package niolab.uring;

/**
 * The constants of {@code linux/io_uring.h} that the lab uses, with the kernel's names and values
 * (the same on every architecture), and their names for reports.
 *
 * <p>Each group notes the Linux release that added it: a kernel older than that rejects the
 * value with {@code EINVAL}, which is how {@link UringSupport} finds what this kernel has.
 */
public final class IoUringConstants {
    // Syscall numbers: io_uring came after the per-architecture tables were unified (425..427 everywhere).
    static final long NR_IO_URING_SETUP = 425;
    static final long NR_IO_URING_ENTER = 426;
    static final long NR_IO_URING_REGISTER = 427;

    // Opcodes (enum io_uring_op), in kernel order.
    public static final int IORING_OP_NOP = 0;
    public static final int IORING_OP_TIMEOUT = 11;
    public static final int IORING_OP_ACCEPT = 13;
    public static final int IORING_OP_ASYNC_CANCEL = 14;
    public static final int IORING_OP_CLOSE = 19;
    public static final int IORING_OP_READ = 22;
    public static final int IORING_OP_SEND = 26;
    public static final int IORING_OP_RECV = 27;
    public static final int IORING_OP_PROVIDE_BUFFERS = 31;
    /** 5.19, the release of multishot accept and buffer rings. */
    public static final int IORING_OP_SOCKET = 45;
    /** 6.0, the release of multishot recv. */
    public static final int IORING_OP_SEND_ZC = 47;

    // sqe->flags
    public static final int IOSQE_IO_LINK = 1 << 2;
    public static final int IOSQE_BUFFER_SELECT = 1 << 5;
    public static final int IOSQE_CQE_SKIP_SUCCESS = 1 << 6;

    // sqe->ioprio for accept (5.19) and recv (6.0)
    public static final int IORING_ACCEPT_MULTISHOT = 1;
    public static final int IORING_RECV_MULTISHOT = 1 << 1;

    // sqe->cancel_flags
    public static final int IORING_ASYNC_CANCEL_ALL = 1;
    public static final int IORING_ASYNC_CANCEL_FD = 1 << 1;

    // cqe->flags
    /** The upper 16 bits of the flags are the id of the provided buffer the data went into. */
    public static final int IORING_CQE_F_BUFFER = 1;
    /** The request stays armed: more completions will come for the same SQE. */
    public static final int IORING_CQE_F_MORE = 1 << 1;
    public static final int IORING_CQE_F_SOCK_NONEMPTY = 1 << 2;
    public static final int IORING_CQE_BUFFER_SHIFT = 16;

    // mmap offsets
    static final long IORING_OFF_SQ_RING = 0L;
    static final long IORING_OFF_CQ_RING = 0x8000000L;
    static final long IORING_OFF_SQES = 0x10000000L;

    // io_uring_setup flags
    /** 5.11 unprivileged: a kernel thread takes SQEs as they are published, so submitting needs no syscall while it polls. */
    public static final int IORING_SETUP_SQPOLL = 1 << 1;
    public static final int IORING_SETUP_CQSIZE = 1 << 3;
    /** 5.18: one failing SQE does not stop the rest of the batch. */
    public static final int IORING_SETUP_SUBMIT_ALL = 1 << 7;
    /** 5.19: completions wait for the task's next kernel entry instead of interrupting it. */
    public static final int IORING_SETUP_COOP_TASKRUN = 1 << 8;
    /** 5.19: the kernel sets IORING_SQ_TASKRUN when only an io_uring_enter will run pending work. */
    public static final int IORING_SETUP_TASKRUN_FLAG = 1 << 9;
    /** 6.0: only the creating thread submits, so the kernel skips locking. */
    public static final int IORING_SETUP_SINGLE_ISSUER = 1 << 12;
    /** 6.1: completion work runs only inside io_uring_enter(GETEVENTS), in batches. */
    public static final int IORING_SETUP_DEFER_TASKRUN = 1 << 13;

    // sq_ring->flags
    /** SQPOLL: the kernel thread slept after sq_thread_idle ms without SQEs; io_uring_enter(SQ_WAKEUP) wakes it. */
    public static final int IORING_SQ_NEED_WAKEUP = 1;
    public static final int IORING_SQ_CQ_OVERFLOW = 1 << 1;
    public static final int IORING_SQ_TASKRUN = 1 << 2;

    // io_uring_enter flags
    public static final int IORING_ENTER_GETEVENTS = 1;
    /** SQPOLL: wake the kernel thread, which sleeps with IORING_SQ_NEED_WAKEUP set. */
    public static final int IORING_ENTER_SQ_WAKEUP = 1 << 1;
    /** SQPOLL: return once the kernel thread has made room in a full SQ. */
    public static final int IORING_ENTER_SQ_WAIT = 1 << 2;
    /** 5.11: the last argument is an io_uring_getevents_arg carrying a wait timeout. */
    public static final int IORING_ENTER_EXT_ARG = 1 << 3;

    // io_uring_params->features
    public static final int IORING_FEAT_SINGLE_MMAP = 1;
    public static final int IORING_FEAT_NODROP = 1 << 1;
    public static final int IORING_FEAT_EXT_ARG = 1 << 8;

    // io_uring_register opcodes
    public static final int IORING_REGISTER_PROBE = 8;
    public static final int IORING_REGISTER_PBUF_RING = 22;
    public static final int IORING_UNREGISTER_PBUF_RING = 23;
    public static final int IO_URING_OP_SUPPORTED = 1;

    private static final String[] SETUP_FLAG_NAMES = {
        "IOPOLL", "SQPOLL", "SQ_AFF", "CQSIZE", "CLAMP", "ATTACH_WQ", "R_DISABLED", "SUBMIT_ALL",
        "COOP_TASKRUN", "TASKRUN_FLAG", "SQE128", "CQE32", "SINGLE_ISSUER", "DEFER_TASKRUN",
        "NO_MMAP", "REGISTERED_FD_ONLY", "NO_SQARRAY", "HYBRID_IOPOLL",
    };

    private static final String[] FEATURE_NAMES = {
        "SINGLE_MMAP", "NODROP", "SUBMIT_STABLE", "RW_CUR_POS", "CUR_PERSONALITY", "FAST_POLL",
        "POLL_32BITS", "SQPOLL_NONFIXED", "EXT_ARG", "NATIVE_WORKERS", "RSRC_TAGS", "CQE_SKIP",
        "LINKED_FILE", "REG_REG_RING", "RECVSEND_BUNDLE", "MIN_TIMEOUT", "RW_ATTR", "NO_IOWAIT",
    };

    private static final String[] OP_NAMES = {
        "NOP", "READV", "WRITEV", "FSYNC", "READ_FIXED", "WRITE_FIXED", "POLL_ADD", "POLL_REMOVE",
        "SYNC_FILE_RANGE", "SENDMSG", "RECVMSG", "TIMEOUT", "TIMEOUT_REMOVE", "ACCEPT", "ASYNC_CANCEL",
        "LINK_TIMEOUT", "CONNECT", "FALLOCATE", "OPENAT", "CLOSE", "FILES_UPDATE", "STATX", "READ",
        "WRITE", "FADVISE", "MADVISE", "SEND", "RECV", "OPENAT2", "EPOLL_CTL", "SPLICE",
        "PROVIDE_BUFFERS", "REMOVE_BUFFERS", "TEE", "SHUTDOWN", "RENAMEAT", "UNLINKAT", "MKDIRAT",
        "SYMLINKAT", "LINKAT", "MSG_RING", "FSETXATTR", "SETXATTR", "FGETXATTR", "GETXATTR", "SOCKET",
        "URING_CMD", "SEND_ZC", "SENDMSG_ZC", "READ_MULTISHOT", "WAITID", "FUTEX_WAIT", "FUTEX_WAKE",
        "FUTEX_WAITV", "FIXED_FD_INSTALL", "FTRUNCATE", "BIND", "LISTEN", "RECV_ZC", "EPOLL_WAIT",
        "READV_FIXED", "WRITEV_FIXED", "PIPE",
    };

    private IoUringConstants() {
    }

    /** {@code SUBMIT_ALL|SINGLE_ISSUER|DEFER_TASKRUN}, or {@code none}. */
    public static String describeSetupFlags(int flags) {
        return describeBits(flags, SETUP_FLAG_NAMES);
    }

    /** {@code SINGLE_MMAP|NODROP|...}; bits newer than this class show as {@code bit20}. */
    public static String describeFeatures(int features) {
        return describeBits(features, FEATURE_NAMES);
    }

    /** {@code RECV}, or {@code op70} for an opcode newer than this class. */
    public static String opName(int op) {
        return op >= 0 && op < OP_NAMES.length ? OP_NAMES[op] : "op" + op;
    }

    private static String describeBits(int bits, String[] names) {
        StringBuilder out = new StringBuilder();
        for (int bit = 0; bit < 32; bit++) {
            if ((bits & (1 << bit)) == 0) continue;
            if (!out.isEmpty()) out.append('|');
            out.append(bit < names.length ? names[bit] : "bit" + bit);
        }
        return out.isEmpty() ? "none" : out.toString();
    }
}
