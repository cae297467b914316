package niolab.epoll.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import niolab.epoll.Syscalls;

/**
 * {@link Syscalls} through the Foreign Function &amp; Memory API (JDK 22+): each call is one
 * {@code invokeExact} of a downcall handle held in a {@code static final} field, which C2 turns
 * into a direct call to a stub. No JNA class is loaded.
 *
 * <p><b>Critical calls.</b> {@code Linker.Option.critical} drops the switch of the thread to
 * native state and back (and the safepoint poll on return), which is most of a downcall's
 * cost, but a safepoint (a GC) then waits for the call to return. So it is used only for calls
 * that return at once and never call back into Java: {@code accept4}, {@code read},
 * {@code send}, {@code write}, {@code setsockopt} (on the non-blocking descriptors the
 * {@link Syscalls} contract promises), {@code epoll_ctl} and {@code memcpy}. Never for
 * {@code epoll_wait}, which sleeps; nor for {@code close}, which sleeps up to the SO_LINGER time
 * on a socket that set it (even a non-blocking one), and runs once per connection, where the few
 * nanoseconds saved do not count; nor for the setup calls, for the same reason.
 * {@code -Dniolab.ffm.critical=false} turns it off everywhere, to measure what it buys.
 *
 * <p><b>errno.</b> Each call captures errno into a small segment of the calling thread
 * ({@code Linker.Option.captureCallState}), errno being per thread in C too. The loop's thread,
 * the one thread that calls {@code epoll_wait} on an instance, claims the segment allocated with
 * it at its first {@code epoll_wait}: from then on its calls allocate nothing and look nothing up.
 * Any other thread (the one that set the loop up before it ran, a {@code stop()} from a signal
 * handler) uses a segment of its own from a ThreadLocal, so it can never overwrite the loop's
 * errno between a failed call and {@link #errno()}.
 *
 * <p><b>Memory.</b> {@link #allocate} is libc's {@code calloc} and {@link #free} its
 * {@code free}, as JNA's {@code Memory} is: memory handed around as raw addresses needs an
 * allocator freed by address, which an {@code Arena} is not.
 */
public final class FfmSyscalls implements Syscalls {
    /** Read once, as the handles are made: {@code -Dniolab.ffm.critical=false} makes every call an ordinary downcall. */
    private static final boolean CRITICAL = !"false".equals(System.getProperty("niolab.ffm.critical"));

    /**
     * The loop's calls capture no errno. {@code captureCallState} hands the downcall a slice of
     * the call-state segment, a heap object per call unless C2 scalar-replaces it, which it did
     * only some of the time here (measured: 40 bytes per call, run to run). So after the rare
     * failure, libc's {@code __errno_location()} is asked at once ({@link #lastErrno}): for a
     * critical call nothing runs in between on this thread; for epoll_wait and close (not
     * critical: they may sleep) the JVM's return to Java runs in between, and the loop needs
     * errno there only to tell EINTR (wait again) from a bug. Setup calls keep captureCallState.
     */
    private static final MethodHandle EPOLL_WAIT = Downcalls.plain("epoll_wait", false,
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));
    /** The whole address space as one segment: reading an int at an address through it allocates nothing. */
    private static final MemorySegment ALL_MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final MethodHandle ERRNO_LOCATION = Downcalls.plain("__errno_location", true,
            FunctionDescriptor.of(JAVA_LONG));
    private static final MethodHandle EPOLL_CTL = Downcalls.plain("epoll_ctl", CRITICAL,
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle ACCEPT4 = Downcalls.plain("accept4", CRITICAL,
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    private static final MethodHandle READ = Downcalls.plain("read", CRITICAL,
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle SEND = Downcalls.plain("send", CRITICAL,
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    private static final MethodHandle WRITE = Downcalls.plain("write", CRITICAL,
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle SETSOCKOPT = Downcalls.plain("setsockopt", CRITICAL,
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT));
    private static final MethodHandle CLOSE = Downcalls.plain("close", false, FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle MEMCPY = Downcalls.plain("memcpy", CRITICAL,
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));

    private static final MethodHandle SOCKET = Downcalls.settingErrno("socket", false,
            JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle BIND = Downcalls.settingErrno("bind", false,
            JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle LISTEN = Downcalls.settingErrno("listen", false,
            JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle CONNECT = Downcalls.settingErrno("connect", false,
            JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle GETSOCKNAME = Downcalls.settingErrno("getsockname", false,
            JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle GETSOCKOPT = Downcalls.settingErrno("getsockopt", false,
            JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle SHUTDOWN = Downcalls.settingErrno("shutdown", false,
            JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle EPOLL_CREATE1 = Downcalls.settingErrno("epoll_create1", false,
            JAVA_INT, JAVA_INT);
    private static final MethodHandle EVENTFD = Downcalls.settingErrno("eventfd", false,
            JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle STRERROR = Downcalls.plain("strerror", false,
            FunctionDescriptor.of(ADDRESS, JAVA_INT));
    private static final MethodHandle CALLOC = Downcalls.plain("calloc", false,
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle FREE = Downcalls.plain("free", false,
            FunctionDescriptor.ofVoid(JAVA_LONG));

    /** Call-state segments of the threads other than the loop's: made on a thread's first call. */
    private static final ThreadLocal<MemorySegment> OTHER_THREADS =
            ThreadLocal.withInitial(() -> Downcalls.newCallState(Arena.ofAuto()));

    private static final VarHandle LOOP_THREAD;

    static {
        try {
            LOOP_THREAD = MethodHandles.lookup().findVarHandle(FfmSyscalls.class, "loopThread", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The first thread to call epoll_wait; set once, by compare-and-set, so two threads can never both own {@link #loopState}. */
    private Thread loopThread;
    /** The loop thread's call state, in the global arena (never freed), which a downcall acquires at no cost. */
    private final MemorySegment loopState = Downcalls.newCallState(Arena.global());
    /** The int 1 for {@link #setFlag}, for the life of the process; never written after this, so threads may share it. */
    private final long one;

    /** Called by {@code Bindings.ffm()}: one instance per event loop. */
    public FfmSyscalls() {
        one = allocate(Integer.BYTES);
        MemorySegment.ofAddress(one).reinterpret(Integer.BYTES).set(JAVA_INT, 0, 1);
    }

    private MemorySegment state() {
        return Thread.currentThread() == loopThread ? loopState : OTHER_THREADS.get();
    }

    /** Copies libc's errno into this thread's call state, right after a call that captured none failed. */
    private void lastErrno() throws Throwable {
        long location = (long) ERRNO_LOCATION.invokeExact();
        Downcalls.setErrno(state(), ALL_MEMORY.get(JAVA_INT, location));
    }

    @Override
    public String name() {
        return "ffm";
    }

    @Override
    public int errno() {
        return Downcalls.errno(state());
    }

    @Override
    public int epoll_wait(int epfd, long events, int maxEvents, int timeoutMs) {
        if (loopThread == null) LOOP_THREAD.compareAndSet(this, null, Thread.currentThread());
        try {
            int n = (int) EPOLL_WAIT.invokeExact(epfd, events, maxEvents, timeoutMs);
            if (n < 0) lastErrno();
            return n;
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int epoll_ctl(int epfd, int op, int fd, long event) {
        try {
            int r = (int) EPOLL_CTL.invokeExact(epfd, op, fd, event);
            if (r < 0) lastErrno();
            return r;
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int accept4(int fd, int flags) {
        try {
            int r = (int) ACCEPT4.invokeExact(fd, 0L, 0L, flags);
            if (r < 0) lastErrno();
            return r;
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public long read(int fd, long buffer, long count) {
        try {
            long r = (long) READ.invokeExact(fd, buffer, count);
            if (r < 0) lastErrno();
            return r;
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public long send(int fd, long buffer, long count, int flags) {
        try {
            long r = (long) SEND.invokeExact(fd, buffer, count, flags);
            if (r < 0) lastErrno();
            return r;
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public long write(int fd, long buffer, long count) {
        try {
            long r = (long) WRITE.invokeExact(fd, buffer, count);
            if (r < 0) lastErrno();
            return r;
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int setFlag(int fd, int level, int name) {
        return setsockopt(fd, level, name, one, Integer.BYTES);
    }

    @Override
    public int close(int fd) {
        try {
            int r = (int) CLOSE.invokeExact(fd);
            if (r < 0) lastErrno();
            return r;
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public long memcpy(long dst, long src, long count) {
        try {
            return (long) MEMCPY.invokeExact(dst, src, count);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int socket(int domain, int type, int protocol) {
        try {
            return (int) SOCKET.invokeExact(state(), domain, type, protocol);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int setsockopt(int fd, int level, int name, long value, int length) {
        try {
            int r = (int) SETSOCKOPT.invokeExact(fd, level, name, value, length);
            if (r < 0) lastErrno();
            return r;
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int bind(int fd, long sockaddr, int length) {
        try {
            return (int) BIND.invokeExact(state(), fd, sockaddr, length);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int listen(int fd, int backlog) {
        try {
            return (int) LISTEN.invokeExact(state(), fd, backlog);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int connect(int fd, long sockaddr, int length) {
        try {
            return (int) CONNECT.invokeExact(state(), fd, sockaddr, length);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int getsockname(int fd, long sockaddr, long lengthInOut) {
        try {
            return (int) GETSOCKNAME.invokeExact(state(), fd, sockaddr, lengthInOut);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int getsockopt(int fd, int level, int name, long value, long lengthInOut) {
        try {
            return (int) GETSOCKOPT.invokeExact(state(), fd, level, name, value, lengthInOut);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int shutdown(int fd, int how) {
        try {
            return (int) SHUTDOWN.invokeExact(state(), fd, how);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int epoll_create1(int flags) {
        try {
            return (int) EPOLL_CREATE1.invokeExact(state(), flags);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int eventfd(int initialValue, int flags) {
        try {
            return (int) EVENTFD.invokeExact(state(), initialValue, flags);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public String strerror(int errnum) {
        try {
            MemorySegment message = (MemorySegment) STRERROR.invokeExact(errnum);
            return message.reinterpret(Integer.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public long allocate(long size) {
        long address;
        try {
            address = (long) CALLOC.invokeExact(1L, size);
        } catch (Throwable t) {
            throw unexpected(t);
        }
        if (address == 0) throw new OutOfMemoryError("calloc(" + size + ") failed");
        return address;
    }

    @Override
    public void free(long address) {
        try {
            FREE.invokeExact(address);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public ByteBuffer buffer(long address, int length) {
        return MemorySegment.ofAddress(address).reinterpret(length).asByteBuffer();
    }

    @Override
    public long address(ByteBuffer direct) {
        return MemorySegment.ofBuffer(direct).address() - direct.position();
    }

    /** A downcall throws only if its handle was built wrong: a bug, never a run-time condition. */
    private static AssertionError unexpected(Throwable t) {
        if (t instanceof Error e) throw e;
        return new AssertionError("downcall failed", t);
    }
}
