package niolab.epoll;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.locks.LockSupport;

/**
 * TCP sockets as raw fds: the cold-path setup around a {@link Syscalls}, where every failure is
 * an {@link ErrnoException} naming the call. The methods without a binding argument use JNA.
 *
 * <pre>
 *   int fd = Sockets.listen(sys, new InetSocketAddress("127.0.0.1", 0), 1024, false); // non-blocking
 *   InetSocketAddress bound = Sockets.localAddress(sys, fd);                        // the real port
 *   int c = Sockets.connect(sys, new InetSocketAddress("127.0.0.1", 6379));         // non-blocking, in progress
 *   // once c is writable (EPOLLOUT):  Sockets.connectError(sys, c) == 0           // connected
 * </pre>
 */
public final class Sockets {
    /** How long {@link #loopbackPair} waits for the kernel to queue its connection. */
    private static final long PAIR_TIMEOUT_NANOS = 5_000_000_000L;

    private Sockets() {
    }

    /**
     * A non-blocking, close-on-exec TCP socket bound to {@code address} and listening.
     * SO_REUSEADDR is always set (a restarted server may rebind while old connections sit in
     * TIME_WAIT); SO_REUSEPORT only when asked (several processes then share the port).
     */
    public static int listen(Syscalls sys, InetSocketAddress address, int backlog, boolean reusePort)
            throws ErrnoException {
        int fd = socket(sys, address);
        try (NativeBuffer sa = NativeBuffer.allocate(sys, SockAddr.MAX_SIZE)) {
            setFlag(sys, fd, Linux.SOL_SOCKET, Linux.SO_REUSEADDR, "setsockopt(SO_REUSEADDR)");
            if (reusePort) setFlag(sys, fd, Linux.SOL_SOCKET, Linux.SO_REUSEPORT, "setsockopt(SO_REUSEPORT)");
            int length = SockAddr.put(sa.view(), address.getAddress(), address.getPort());
            ErrnoException.check(sys, "bind", sys.bind(fd, sa.address(), length));
            ErrnoException.check(sys, "listen", sys.listen(fd, backlog));
            return fd;
        } catch (ErrnoException e) {
            sys.close(fd);
            throw e;
        }
    }

    /**
     * A non-blocking, close-on-exec TCP socket connecting to {@code address}, with TCP_NODELAY:
     * the connection is usually still in progress on return. It is established, or has failed,
     * when the socket becomes writable; then {@link #connectError} tells which.
     */
    public static int connect(Syscalls sys, InetSocketAddress address) throws ErrnoException {
        int fd = socket(sys, address);
        try (NativeBuffer sa = NativeBuffer.allocate(sys, SockAddr.MAX_SIZE)) {
            setFlag(sys, fd, Linux.IPPROTO_TCP, Linux.TCP_NODELAY, "setsockopt(TCP_NODELAY)");
            int length = SockAddr.put(sa.view(), address.getAddress(), address.getPort());
            if (sys.connect(fd, sa.address(), length) < 0 && sys.errno() != Errno.EINPROGRESS) {
                throw ErrnoException.last(sys, "connect");
            }
            return fd;
        } catch (ErrnoException e) {
            sys.close(fd);
            throw e;
        }
    }

    /** The outcome of a non-blocking connect once the socket is writable: 0, or its errno (ECONNREFUSED...). */
    public static int connectError(Syscalls sys, int fd) {
        // The int SO_ERROR, then the socklen_t the call reads and writes back.
        try (NativeBuffer option = NativeBuffer.allocate(sys, 2 * Integer.BYTES)) {
            ByteBuffer view = option.view().order(ByteOrder.nativeOrder());
            view.putInt(Integer.BYTES, Integer.BYTES);
            if (sys.getsockopt(fd, Linux.SOL_SOCKET, Linux.SO_ERROR, option.address(), option.address() + Integer.BYTES) < 0) {
                return sys.errno();
            }
            return view.getInt(0);
        }
    }

    /** getsockname: the address {@code fd} is bound to. */
    public static InetSocketAddress localAddress(Syscalls sys, int fd) throws ErrnoException, UnknownHostException {
        // The sockaddr, then the socklen_t the call reads and writes back.
        try (NativeBuffer sa = NativeBuffer.allocate(sys, SockAddr.MAX_SIZE + Integer.BYTES)) {
            long length = sa.address() + SockAddr.MAX_SIZE;
            sa.view().order(ByteOrder.nativeOrder()).putInt(SockAddr.MAX_SIZE, SockAddr.MAX_SIZE);
            ErrnoException.check(sys, "getsockname", sys.getsockname(fd, sa.address(), length));
            return SockAddr.parse(sa.view());
        }
    }

    /**
     * Both ends of a TCP connection over 127.0.0.1, non-blocking and close-on-exec, as
     * {@code {connected, accepted}}: the socket pair tests and benchmarks read and write.
     */
    public static int[] loopbackPair(Syscalls sys) throws ErrnoException, UnknownHostException {
        int listener = listen(sys, new InetSocketAddress("127.0.0.1", 0), 1, false);
        int client = -1;
        try (NativeBuffer sa = NativeBuffer.allocate(sys, SockAddr.MAX_SIZE)) {
            InetSocketAddress at = localAddress(sys, listener);
            client = socket(sys, at);
            int length = SockAddr.put(sa.view(), at.getAddress(), at.getPort());
            // Non-blocking: EINPROGRESS, and the handshake completes in the kernel meanwhile.
            if (sys.connect(client, sa.address(), length) < 0 && sys.errno() != Errno.EINPROGRESS) {
                throw ErrnoException.last(sys, "connect");
            }
            long deadline = System.nanoTime() + PAIR_TIMEOUT_NANOS;
            while (true) {
                int accepted = sys.accept4(listener, Linux.SOCK_NONBLOCK | Linux.SOCK_CLOEXEC);
                if (accepted >= 0) return new int[] {client, accepted};
                int err = sys.errno();
                if (err != Errno.EAGAIN || System.nanoTime() - deadline > 0) throw new ErrnoException("accept4", err, sys);
                LockSupport.parkNanos(100_000);
            }
        } catch (ErrnoException e) {
            if (client >= 0) sys.close(client);
            throw e;
        } finally {
            sys.close(listener);
        }
    }

    /** Sets a boolean option to 1 through {@code sys}; returns 0 or the errno. Allocates nothing. */
    public static int setFlag(Syscalls sys, int fd, int level, int name) {
        return sys.setFlag(fd, level, name) == 0 ? 0 : sys.errno();
    }

    private static void setFlag(Syscalls sys, int fd, int level, int name, String call) throws ErrnoException {
        int err = setFlag(sys, fd, level, name);
        if (err != 0) throw new ErrnoException(call, err, sys);
    }

    private static int socket(Syscalls sys, InetSocketAddress address) throws ErrnoException {
        int family = address.getAddress() instanceof Inet6Address ? Linux.AF_INET6 : Linux.AF_INET;
        return ErrnoException.check(sys, "socket",
                sys.socket(family, Linux.SOCK_STREAM | Linux.SOCK_NONBLOCK | Linux.SOCK_CLOEXEC, 0));
    }
}
