package niolab.bench;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link SerialSocket} as raw Linux syscalls through the Foreign Function and Memory API
 * (JDK 22+): socket, setsockopt, connect, write, read, close, exactly what a minimal C client
 * calls. A blocking socket needs no poll: every wait is bounded by the {@link Watchdog}, whose
 * {@link #abort} is {@code shutdown(fd, SHUT_RDWR)}, which wakes a blocked read (end of
 * stream), write (EPIPE) or connect (the kernel drops the half-open connection).
 *
 * <p>Nothing is allocated per request: the target's sockaddr and the errno slot are native
 * memory set up once, and the buffers are passed by address (a {@code long}), so no segment is
 * sliced per call. Downcalls are plain, not {@code critical}: connect, read and write block,
 * and a critical call must not; the other calls happen once per request, where the few
 * nanoseconds a critical call saves are nothing beside the TCP handshake.
 *
 * <p>Why not on JDK 17: there the only way to the bare calls is a native library (JNA), and
 * echo-bench depends on none; the {@link ChannelSerialSocket} it uses instead adds two
 * {@code getsockname} per connect, under a microsecond together.
 */
public final class FfmSerialSocket implements SerialSocket {
    // Linux values (x86-64 and arm64 alike).
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final int SOCK_STREAM = 1;
    private static final int SOL_SOCKET = 1;
    private static final int SO_LINGER = 13;
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_NODELAY = 1;
    private static final int SHUT_RDWR = 2;
    private static final int EINTR = 4;
    private static final int ECONNREFUSED = 111;

    private static final Linker LINKER = Linker.nativeLinker();
    /** Handles declared with it take a segment first, where the call leaves its errno. */
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final VarHandle ERRNO_VALUE = Linker.Option.captureStateLayout()
            .varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout PTR = ValueLayout.ADDRESS;

    // Buffers go as a long address (read, write): no segment is made per call.
    private static final MethodHandle SOCKET = downcall("socket", FunctionDescriptor.of(INT, INT, INT, INT), ERRNO);
    private static final MethodHandle SETSOCKOPT = downcall("setsockopt", FunctionDescriptor.of(INT, INT, INT, INT, PTR, INT), ERRNO);
    private static final MethodHandle CONNECT = downcall("connect", FunctionDescriptor.of(INT, INT, PTR, INT), ERRNO);
    private static final MethodHandle WRITE = downcall("write", FunctionDescriptor.of(LONG, INT, LONG, LONG), ERRNO);
    private static final MethodHandle READ = downcall("read", FunctionDescriptor.of(LONG, INT, LONG, LONG), ERRNO);
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(INT, INT));
    private static final MethodHandle SHUTDOWN = downcall("shutdown", FunctionDescriptor.of(INT, INT, INT));
    private static final MethodHandle STRERROR = downcall("strerror", FunctionDescriptor.of(PTR, INT));

    private final int family;
    private final MemorySegment sockaddr;
    private final MemorySegment one;
    private final MemorySegment lingerZero;
    /** Where each call leaves its errno: the client thread's own (the watchdog's shutdown does not capture). */
    private final MemorySegment errno;
    private final boolean linger0;
    private final ByteBuffer out;
    private final long outAddress;
    private final ByteBuffer in;
    private final long inAddress;
    /** The current socket, or -1; the watchdog reads it in {@link #abort}. */
    private volatile int fd = -1;

    public FfmSerialSocket(InetSocketAddress target, boolean linger0, ByteBuffer out, ByteBuffer in) {
        Arena arena = Arena.ofAuto();
        this.family = target.getAddress() instanceof Inet4Address ? AF_INET : AF_INET6;
        this.sockaddr = sockaddr(arena, target, family);
        this.one = arena.allocate(INT);
        one.set(INT, 0, 1);
        this.lingerZero = arena.allocate(8); // struct linger { int l_onoff = 1; int l_linger = 0; }
        lingerZero.set(INT, 0, 1);
        this.errno = arena.allocate(Linker.Option.captureStateLayout());
        this.linger0 = linger0;
        this.out = out;
        this.outAddress = MemorySegment.ofBuffer(out.duplicate().clear()).address(); // the buffer's start, whatever its position
        this.in = in;
        this.inAddress = MemorySegment.ofBuffer(in.duplicate().clear()).address();
    }

    /** struct sockaddr_in (16 bytes) or sockaddr_in6 (28): family in host order, port and address in network order. */
    private static MemorySegment sockaddr(Arena arena, InetSocketAddress target, int family) {
        byte[] ip = target.getAddress().getAddress();
        MemorySegment sa = arena.allocate(family == AF_INET ? 16 : 28);
        sa.set(ValueLayout.JAVA_SHORT, 0, (short) family);
        sa.set(ValueLayout.JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2, (short) target.getPort());
        MemorySegment.copy(MemorySegment.ofArray(ip), 0, sa, family == AF_INET ? 4 : 8, ip.length);
        return sa;
    }

    @Override
    public void open() throws IOException {
        int s = socket(errno, family, SOCK_STREAM, 0);
        if (s < 0) throw error("socket");
        fd = s;
        if (setsockopt(errno, s, IPPROTO_TCP, TCP_NODELAY, one, 4) < 0) throw error("setsockopt");
        if (linger0 && setsockopt(errno, s, SOL_SOCKET, SO_LINGER, lingerZero, 8) < 0) throw error("setsockopt");
    }

    @Override
    public void connect() throws IOException {
        if (connect(errno, fd, sockaddr, (int) sockaddr.byteSize()) < 0) {
            int e = lastErrno();
            // The JDK's exception class and words, so that ErrorClass reads an FFM failure as it reads a JDK one.
            throw new ConnectException(e == ECONNREFUSED ? "Connection refused" : strerror(e) + " (connect)");
        }
    }

    @Override
    public void write() throws IOException {
        while (out.hasRemaining()) {
            long n = write(errno, fd, outAddress + out.position(), out.remaining());
            if (n < 0) {
                if (lastErrno() == EINTR) continue;
                throw error("write");
            }
            out.position(out.position() + (int) n);
        }
    }

    @Override
    public int read() throws IOException {
        while (true) {
            long n = read(errno, fd, inAddress + in.position(), in.remaining());
            if (n > 0) {
                in.position(in.position() + (int) n);
                return (int) n;
            }
            if (n == 0) return -1;
            if (lastErrno() != EINTR) throw error("read");
        }
    }

    @Override
    public void close() {
        int s = fd;
        fd = -1;
        if (s >= 0) close(s);
    }

    @Override
    public void abort() {
        int s = fd;
        if (s >= 0) shutdown(s, SHUT_RDWR);
    }

    private int lastErrno() {
        return (int) ERRNO_VALUE.get(errno, 0L);
    }

    private IOException error(String call) {
        return new SocketException(strerror(lastErrno()) + " (" + call + ")");
    }

    /** The C library's words for an errno, e.g. "Connection reset by peer": ErrorClass reads them as it reads the JDK's. */
    private static String strerror(int e) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(e);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + e;
        }
    }

    // The calls, with exact types: invokeExact neither boxes nor allocates. A downcall throws
    // only if its declared type is wrong (a bug), hence the unchecked rethrow.

    private static int socket(MemorySegment errno, int domain, int type, int protocol) {
        try {
            return (int) SOCKET.invokeExact(errno, domain, type, protocol);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static int setsockopt(MemorySegment errno, int fd, int level, int name, MemorySegment value, int length) {
        try {
            return (int) SETSOCKOPT.invokeExact(errno, fd, level, name, value, length);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static int connect(MemorySegment errno, int fd, MemorySegment address, int length) {
        try {
            return (int) CONNECT.invokeExact(errno, fd, address, length);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static long write(MemorySegment errno, int fd, long address, long count) {
        try {
            return (long) WRITE.invokeExact(errno, fd, address, count);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static long read(MemorySegment errno, int fd, long address, long count) {
        try {
            return (long) READ.invokeExact(errno, fd, address, count);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** A failed close leaves nothing to do: the descriptor is released either way on Linux. */
    private static void close(int fd) {
        try {
            int unused = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Fails only if the connection is gone already, which is what it is for. */
    private static void shutdown(int fd, int how) {
        try {
            int unused = (int) SHUTDOWN.invokeExact(fd, how);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MethodHandle downcall(String name, FunctionDescriptor d, Linker.Option... options) {
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new IllegalStateException("no " + name + " in the C library"));
        return LINKER.downcallHandle(symbol, d, options);
    }
}
