package niolab.uring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static niolab.uring.IoUringConstants.IORING_REGISTER_PROBE;
import static niolab.uring.IoUringConstants.IO_URING_OP_SUPPORTED;
import static niolab.uring.IoUringStructs.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.BitSet;
import niolab.epoll.ErrnoException;

/**
 * Which SQE opcodes this kernel supports, from IORING_REGISTER_PROBE (5.6). Opcode support
 * says nothing about newer flags of an old opcode (multishot accept is ACCEPT with an ioprio
 * bit): {@link UringSupport} tries those directly.
 */
public final class UringProbe {
    /** ops[] is indexed by opcode, which is a byte. */
    private static final int MAX_OPS = 256;

    private final int lastOp;
    private final BitSet supported;

    UringProbe(int lastOp, BitSet supported) {
        this.lastOp = lastOp;
        this.supported = supported;
    }

    /** Asks the kernel behind {@code ring}. */
    static UringProbe of(IoUring ring) throws ErrnoException {
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment probe = scratch.allocate(IO_URING_PROBE.byteSize() + MAX_OPS * PROBE_OP_SIZE);
            int r = ring.register(IORING_REGISTER_PROBE, probe.address(), MAX_OPS);
            if (r < 0) throw new ErrnoException("io_uring_register(PROBE)", -r);
            int lastOp = Byte.toUnsignedInt(probe.get(JAVA_BYTE, PROBE_LAST_OP));
            int opsLen = Byte.toUnsignedInt(probe.get(JAVA_BYTE, PROBE_OPS_LEN));
            BitSet supported = new BitSet(opsLen);
            for (int op = 0; op < opsLen; op++) {
                long entry = IO_URING_PROBE.byteSize() + op * PROBE_OP_SIZE;
                if ((probe.get(JAVA_SHORT, entry + PROBE_OP_FLAGS) & IO_URING_OP_SUPPORTED) != 0) supported.set(op);
            }
            return new UringProbe(lastOp, supported);
        }
    }

    public boolean supports(int opcode) {
        return opcode >= 0 && supported.get(opcode);
    }

    /** The highest opcode this kernel knows. */
    public int lastOp() {
        return lastOp;
    }

    /** {@code 62 ops (NOP..WRITEV_FIXED)}, then {@code , not: X Y} for the gaps. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder().append(supported.cardinality()).append(" ops (")
                .append(IoUringConstants.opName(0)).append("..").append(IoUringConstants.opName(lastOp)).append(')');
        String gap = ", not:";
        for (int op = 0; op <= lastOp; op++) {
            if (supported.get(op)) continue;
            out.append(gap).append(' ').append(IoUringConstants.opName(op));
            gap = "";
        }
        return out.toString();
    }
}
