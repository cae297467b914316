package niolab.uring;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * The structs of {@code linux/io_uring.h} as FFM layouts, field by field in the kernel's order
 * and with its names, and the byte offsets the ring code uses, derived from the layouts (never
 * typed twice). {@code IoUringStructsTest} checks every size and offset against the header.
 *
 * <p>A C union appears as its first member (the SQE's {@code off} stands for {@code addr2},
 * {@code op_flags} for {@code rw_flags}, {@code msg_flags}, {@code accept_flags}...): one name,
 * one offset, as liburing's accessors treat it.
 */
public final class IoUringStructs {
    public static final StructLayout IO_SQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"),
            JAVA_INT.withName("tail"),
            JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("dropped"),
            JAVA_INT.withName("array"),
            JAVA_INT.withName("resv1"),
            JAVA_LONG.withName("user_addr")).withName("io_sqring_offsets");

    public static final StructLayout IO_CQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"),
            JAVA_INT.withName("tail"),
            JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"),
            JAVA_INT.withName("overflow"),
            JAVA_INT.withName("cqes"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("resv1"),
            JAVA_LONG.withName("user_addr")).withName("io_cqring_offsets");

    public static final StructLayout IO_URING_PARAMS = MemoryLayout.structLayout(
            JAVA_INT.withName("sq_entries"),
            JAVA_INT.withName("cq_entries"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("sq_thread_cpu"),
            JAVA_INT.withName("sq_thread_idle"),
            JAVA_INT.withName("features"),
            JAVA_INT.withName("wq_fd"),
            MemoryLayout.sequenceLayout(3, JAVA_INT).withName("resv"),
            IO_SQRING_OFFSETS.withName("sq_off"),
            IO_CQRING_OFFSETS.withName("cq_off")).withName("io_uring_params");

    public static final StructLayout IO_URING_SQE = MemoryLayout.structLayout(
            JAVA_BYTE.withName("opcode"),
            JAVA_BYTE.withName("flags"),
            JAVA_SHORT.withName("ioprio"),
            JAVA_INT.withName("fd"),
            JAVA_LONG.withName("off"),
            JAVA_LONG.withName("addr"),
            JAVA_INT.withName("len"),
            JAVA_INT.withName("op_flags"),
            JAVA_LONG.withName("user_data"),
            JAVA_SHORT.withName("buf_index"),
            JAVA_SHORT.withName("personality"),
            JAVA_INT.withName("splice_fd_in"),
            JAVA_LONG.withName("addr3"),
            JAVA_LONG.withName("pad2")).withName("io_uring_sqe");

    public static final StructLayout IO_URING_CQE = MemoryLayout.structLayout(
            JAVA_LONG.withName("user_data"),
            JAVA_INT.withName("res"),
            JAVA_INT.withName("flags")).withName("io_uring_cqe");

    public static final StructLayout IO_URING_PROBE_OP = MemoryLayout.structLayout(
            JAVA_BYTE.withName("op"),
            JAVA_BYTE.withName("resv"),
            JAVA_SHORT.withName("flags"),
            JAVA_INT.withName("resv2")).withName("io_uring_probe_op");

    /** The header before the flexible {@code ops[]} array of {@link #IO_URING_PROBE_OP}. */
    public static final StructLayout IO_URING_PROBE = MemoryLayout.structLayout(
            JAVA_BYTE.withName("last_op"),
            JAVA_BYTE.withName("ops_len"),
            JAVA_SHORT.withName("resv"),
            MemoryLayout.sequenceLayout(3, JAVA_INT).withName("resv2")).withName("io_uring_probe");

    public static final StructLayout IO_URING_BUF = MemoryLayout.structLayout(
            JAVA_LONG.withName("addr"),
            JAVA_INT.withName("len"),
            JAVA_SHORT.withName("bid"),
            JAVA_SHORT.withName("resv")).withName("io_uring_buf");

    /** The buffer ring's first slot read as its header: the tail overlays {@code bufs[0].resv}. */
    public static final StructLayout IO_URING_BUF_RING = MemoryLayout.structLayout(
            JAVA_LONG.withName("resv1"),
            JAVA_INT.withName("resv2"),
            JAVA_SHORT.withName("resv3"),
            JAVA_SHORT.withName("tail")).withName("io_uring_buf_ring");

    public static final StructLayout IO_URING_BUF_REG = MemoryLayout.structLayout(
            JAVA_LONG.withName("ring_addr"),
            JAVA_INT.withName("ring_entries"),
            JAVA_SHORT.withName("bgid"),
            JAVA_SHORT.withName("flags"),
            MemoryLayout.sequenceLayout(3, JAVA_LONG).withName("resv")).withName("io_uring_buf_reg");

    /** The io_uring_enter argument with {@code IORING_ENTER_EXT_ARG}: a wait timeout without a timeout SQE. */
    public static final StructLayout IO_URING_GETEVENTS_ARG = MemoryLayout.structLayout(
            JAVA_LONG.withName("sigmask"),
            JAVA_INT.withName("sigmask_sz"),
            JAVA_INT.withName("pad"),
            JAVA_LONG.withName("ts")).withName("io_uring_getevents_arg");

    public static final StructLayout KERNEL_TIMESPEC = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"),
            JAVA_LONG.withName("tv_nsec")).withName("__kernel_timespec");

    // Offsets the ring code reads and writes, named STRUCT_FIELD.
    static final long PARAMS_SQ_ENTRIES = offset(IO_URING_PARAMS, "sq_entries");
    static final long PARAMS_CQ_ENTRIES = offset(IO_URING_PARAMS, "cq_entries");
    static final long PARAMS_FLAGS = offset(IO_URING_PARAMS, "flags");
    static final long PARAMS_FEATURES = offset(IO_URING_PARAMS, "features");
    static final long PARAMS_SQ_THREAD_IDLE = offset(IO_URING_PARAMS, "sq_thread_idle");
    static final long PARAMS_SQ_OFF = offset(IO_URING_PARAMS, "sq_off");
    static final long PARAMS_CQ_OFF = offset(IO_URING_PARAMS, "cq_off");

    static final long SQ_OFF_HEAD = offset(IO_SQRING_OFFSETS, "head");
    static final long SQ_OFF_TAIL = offset(IO_SQRING_OFFSETS, "tail");
    static final long SQ_OFF_RING_MASK = offset(IO_SQRING_OFFSETS, "ring_mask");
    static final long SQ_OFF_RING_ENTRIES = offset(IO_SQRING_OFFSETS, "ring_entries");
    static final long SQ_OFF_FLAGS = offset(IO_SQRING_OFFSETS, "flags");
    static final long SQ_OFF_ARRAY = offset(IO_SQRING_OFFSETS, "array");

    static final long CQ_OFF_HEAD = offset(IO_CQRING_OFFSETS, "head");
    static final long CQ_OFF_TAIL = offset(IO_CQRING_OFFSETS, "tail");
    static final long CQ_OFF_RING_MASK = offset(IO_CQRING_OFFSETS, "ring_mask");
    static final long CQ_OFF_RING_ENTRIES = offset(IO_CQRING_OFFSETS, "ring_entries");
    static final long CQ_OFF_OVERFLOW = offset(IO_CQRING_OFFSETS, "overflow");
    static final long CQ_OFF_CQES = offset(IO_CQRING_OFFSETS, "cqes");

    static final long SQE_SIZE = IO_URING_SQE.byteSize();
    static final long SQE_OPCODE = offset(IO_URING_SQE, "opcode");
    static final long SQE_FLAGS = offset(IO_URING_SQE, "flags");
    static final long SQE_IOPRIO = offset(IO_URING_SQE, "ioprio");
    static final long SQE_FD = offset(IO_URING_SQE, "fd");
    static final long SQE_OFF = offset(IO_URING_SQE, "off");
    static final long SQE_ADDR = offset(IO_URING_SQE, "addr");
    static final long SQE_LEN = offset(IO_URING_SQE, "len");
    static final long SQE_OP_FLAGS = offset(IO_URING_SQE, "op_flags");
    static final long SQE_USER_DATA = offset(IO_URING_SQE, "user_data");
    static final long SQE_BUF_INDEX = offset(IO_URING_SQE, "buf_index");
    static final long SQE_PERSONALITY = offset(IO_URING_SQE, "personality");
    static final long SQE_SPLICE_FD_IN = offset(IO_URING_SQE, "splice_fd_in");
    /** The same 32 bits as splice_fd_in, read as optlen by a multishot recv (its byte limit). */
    static final long SQE_OPTLEN = SQE_SPLICE_FD_IN;
    static final long SQE_ADDR3 = offset(IO_URING_SQE, "addr3");
    static final long SQE_PAD2 = offset(IO_URING_SQE, "pad2");

    static final long CQE_SIZE = IO_URING_CQE.byteSize();
    static final long CQE_USER_DATA = offset(IO_URING_CQE, "user_data");
    static final long CQE_RES = offset(IO_URING_CQE, "res");
    static final long CQE_FLAGS = offset(IO_URING_CQE, "flags");

    static final long PROBE_LAST_OP = offset(IO_URING_PROBE, "last_op");
    static final long PROBE_OPS_LEN = offset(IO_URING_PROBE, "ops_len");
    static final long PROBE_OP_SIZE = IO_URING_PROBE_OP.byteSize();
    static final long PROBE_OP_FLAGS = offset(IO_URING_PROBE_OP, "flags");

    static final long BUF_SIZE = IO_URING_BUF.byteSize();
    static final long BUF_ADDR = offset(IO_URING_BUF, "addr");
    static final long BUF_LEN = offset(IO_URING_BUF, "len");
    static final long BUF_BID = offset(IO_URING_BUF, "bid");
    static final long BUF_RING_TAIL = offset(IO_URING_BUF_RING, "tail");

    static final long BUF_REG_RING_ADDR = offset(IO_URING_BUF_REG, "ring_addr");
    static final long BUF_REG_RING_ENTRIES = offset(IO_URING_BUF_REG, "ring_entries");
    static final long BUF_REG_BGID = offset(IO_URING_BUF_REG, "bgid");

    static final long GETEVENTS_ARG_SIGMASK_SZ = offset(IO_URING_GETEVENTS_ARG, "sigmask_sz");
    static final long GETEVENTS_ARG_TS = offset(IO_URING_GETEVENTS_ARG, "ts");
    static final long TIMESPEC_SEC = offset(KERNEL_TIMESPEC, "tv_sec");
    static final long TIMESPEC_NSEC = offset(KERNEL_TIMESPEC, "tv_nsec");

    private IoUringStructs() {
    }

    static long offset(StructLayout struct, String field) {
        return struct.byteOffset(groupElement(field));
    }
}
