package niolab.epoll.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * How this package binds a libc function: a downcall handle made once, found by name in the
 * C library ({@link Linker#defaultLookup()}), and the segment its errno is captured into.
 *
 * <p>Pointers are passed as {@code JAVA_LONG}, not {@code ADDRESS}: on 64-bit Linux (x86_64 and
 * aarch64) a pointer and a long travel in the same integer register, and a long needs no
 * {@link MemorySegment} per call. That is what keeps a call from allocating.
 */
public final class Downcalls {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    private Downcalls() {
    }

    /**
     * A handle to {@code name} whose first parameter is a call-state segment ({@link #newCallState})
     * that receives errno as the call returns. {@code critical}: the call stays in Java state
     * (no safepoint poll, no thread-state transitions), for calls that cannot block or call back.
     */
    public static MethodHandle settingErrno(String name, boolean critical, MemoryLayout result, MemoryLayout... args) {
        FunctionDescriptor descriptor = FunctionDescriptor.of(result, args);
        return critical
                ? LINKER.downcallHandle(find(name), descriptor, CAPTURE_ERRNO, CRITICAL)
                : LINKER.downcallHandle(find(name), descriptor, CAPTURE_ERRNO);
    }

    /** A handle to a function that reports no errno the caller reads (memcpy, calloc, free, strerror). */
    public static MethodHandle plain(String name, boolean critical, FunctionDescriptor descriptor) {
        return critical
                ? LINKER.downcallHandle(find(name), descriptor, CRITICAL)
                : LINKER.downcallHandle(find(name), descriptor);
    }

    /** A call-state segment, to pass to every call of one thread. */
    public static MemorySegment newCallState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    /** Stores an errno read by other means into {@code callState}, for {@link #errno} to report. */
    public static void setErrno(MemorySegment callState, int errno) {
        ERRNO.set(callState, 0L, errno);
    }

    /** The errno the last call given {@code callState} left in it. */
    public static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    private static MemorySegment find(String name) {
        return LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
    }
}
