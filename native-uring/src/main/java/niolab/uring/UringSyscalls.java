package niolab.uring;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static niolab.uring.IoUringConstants.NR_IO_URING_ENTER;
import static niolab.uring.IoUringConstants.NR_IO_URING_REGISTER;
import static niolab.uring.IoUringConstants.NR_IO_URING_SETUP;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The native calls under the ring, bound once with FFM downcall handles: the three io_uring
 * syscalls, and mmap, munmap, close.
 *
 * <p>glibc has no wrapper for the io_uring syscalls (liburing makes them itself), so they go
 * through {@code long syscall(long number, ...)}. That function is variadic, and the handle says
 * so ({@link Linker.Option#firstVariadicArg}): the C calling convention of a variadic call may
 * differ from a plain one (x86_64 passes the count of vector registers in {@code %al}), and FFM
 * only gets it right when told. glibc's {@code syscall} reads each variadic argument as a
 * {@code long}, so every argument goes as {@code JAVA_LONG}, and one six-argument handle serves
 * all three syscalls (a syscall ignores the registers it does not use).
 *
 * <p>Every call returns its result, or {@code -errno} on failure (the kernel's own convention,
 * the one CQE results use too). errno is captured by the downcall itself
 * ({@link Linker.Option#captureCallState}) into a segment this instance owns, because the JVM
 * may make other native calls on the thread before Java code could read the real errno. One
 * instance per thread: each ring owns one, used by its loop thread.
 *
 * <p>Pointers cross as {@code long} addresses, as in the JNA binding: the ring code keeps
 * addresses as numbers, and a {@code long} return allocates nothing.
 */
final class UringSyscalls {
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_SHARED = 0x01;
    private static final int MAP_POPULATE = 0x8000;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final MethodHandle SYSCALL6 = downcall("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            Linker.Option.firstVariadicArg(1), CAPTURE_ERRNO);
    /**
     * The same call without errno, for io_uring_enter on the hot path: until C2 has compiled a
     * call site, a capturing downcall allocates a slice of the capture segment per call.
     */
    private static final MethodHandle SYSCALL6_NO_ERRNO = downcall("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle MMAP = downcall("mmap",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle MUNMAP = downcall("munmap",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle CLOSE = downcall("close",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT), CAPTURE_ERRNO);

    private final MemorySegment callState;

    UringSyscalls() {
        // Not in the ring's arena: closing that arena runs munmap through this instance.
        this.callState = Arena.ofAuto().allocate(CALL_STATE);
    }

    /** io_uring_setup(2): the ring fd, or -errno. {@code params} is read and filled in by the kernel. */
    int setup(int entries, MemorySegment params) {
        return (int) syscall(NR_IO_URING_SETUP, entries, params.address(), 0, 0, 0, 0);
    }

    /** io_uring_enter(2): the number of SQEs consumed, or -errno. */
    int enter(int ringFd, int toSubmit, int minComplete, int flags, long arg, long argSize) {
        return (int) syscall(NR_IO_URING_ENTER, ringFd, toSubmit, minComplete, flags, arg, argSize);
    }

    /**
     * io_uring_enter(2) without errno: the number of SQEs consumed, or -1 when it failed, for
     * a reason only {@link #enter} can tell. Allocates nothing, compiled or not.
     */
    int enterNoErrno(int ringFd, int toSubmit, int minComplete, int flags, long arg, long argSize) {
        try {
            return (int) (long) SYSCALL6_NO_ERRNO.invokeExact(NR_IO_URING_ENTER, (long) ringFd, (long) toSubmit,
                    (long) minComplete, (long) flags, arg, argSize);
        } catch (Throwable t) {
            throw downcallFailed(t);
        }
    }

    /** io_uring_register(2): an opcode-specific result, or -errno. */
    int register(int ringFd, int opcode, long arg, int nrArgs) {
        return (int) syscall(NR_IO_URING_REGISTER, ringFd, opcode, arg, nrArgs, 0, 0);
    }

    /** A shared, prefaulted read-write mapping of {@code fd} at {@code offset}: its address, or -errno. */
    long mmap(long length, int fd, long offset) {
        try {
            long address = (long) MMAP.invokeExact(callState, 0L, length, PROT_READ_WRITE, MAP_SHARED | MAP_POPULATE, fd, offset);
            return address == -1 ? -errno() : address;
        } catch (Throwable t) {
            throw downcallFailed(t);
        }
    }

    int munmap(long address, long length) {
        try {
            int r = (int) MUNMAP.invokeExact(callState, address, length);
            return r == -1 ? -errno() : r;
        } catch (Throwable t) {
            throw downcallFailed(t);
        }
    }

    int close(int fd) {
        try {
            int r = (int) CLOSE.invokeExact(callState, fd);
            return r == -1 ? -errno() : r;
        } catch (Throwable t) {
            throw downcallFailed(t);
        }
    }

    private long syscall(long number, long a, long b, long c, long d, long e, long f) {
        try {
            long r = (long) SYSCALL6.invokeExact(callState, number, a, b, c, d, e, f);
            return r == -1 ? -errno() : r;
        } catch (Throwable t) {
            throw downcallFailed(t);
        }
    }

    private int errno() {
        return (int) ERRNO.get(callState, 0L);
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /** A downcall handle throws only on a JVM bug or a type mismatch here: never an errno. */
    private static IllegalStateException downcallFailed(Throwable t) {
        return new IllegalStateException("native call failed in the JVM", t);
    }
}
