package niolab.epoll;

import com.sun.jna.Memory;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Listening and connecting sockets as raw fds: the cold-path setup around {@link LibC}, where
 * every failure is an {@link ErrnoException} naming the call.
 *
 * <pre>
 *   int fd = Sockets.listen(new InetSocketAddress("127.0.0.1", 0), 1024, false); // non-blocking
 *   InetSocketAddress bound = Sockets.localAddress(fd);                        // the real port
 *   int c = Sockets.connect(new InetSocketAddress("127.0.0.1", 6379));          // non-blocking, in progress
 *   // once c is writable (EPOLLOUT):  Sockets.connectError(c) == 0            // connected
 * </pre>
 */
public final class Sockets {
    /** The int 1 for boolean socket options; never written after class init, so threads may share it. */
    private static final Memory ONE = new Memory(4);

    static {
        ONE.setInt(0, 1);
    }

    private Sockets() {
    }

    /**
     * A non-blocking, close-on-exec TCP socket bound to {@code address} and listening.
     * SO_REUSEADDR is always set (a restarted server may rebind while old connections sit in
     * TIME_WAIT); SO_REUSEPORT only when asked (several processes then share the port).
     */
    public static int listen(InetSocketAddress address, int backlog, boolean reusePort) throws ErrnoException {
        boolean v6 = address.getAddress() instanceof Inet6Address;
        int fd = ErrnoException.check("socket", LibC.socket(v6 ? LibC.AF_INET6 : LibC.AF_INET,
                LibC.SOCK_STREAM | LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC, 0));
        try (Memory sa = SockAddr.of(address.getAddress(), address.getPort())) {
            setFlag(fd, LibC.SOL_SOCKET, LibC.SO_REUSEADDR, "setsockopt(SO_REUSEADDR)");
            if (reusePort) setFlag(fd, LibC.SOL_SOCKET, LibC.SO_REUSEPORT, "setsockopt(SO_REUSEPORT)");
            ErrnoException.check("bind", LibC.bind(fd, sa, (int) sa.size()));
            ErrnoException.check("listen", LibC.listen(fd, backlog));
            return fd;
        } catch (ErrnoException e) {
            LibC.close(fd);
            throw e;
        }
    }

    /**
     * A non-blocking, close-on-exec TCP socket connecting to {@code address}, with TCP_NODELAY:
     * the connection is usually still in progress on return. It is established, or has failed,
     * when the socket becomes writable; then {@link #connectError} tells which.
     */
    public static int connect(InetSocketAddress address) throws ErrnoException {
        boolean v6 = address.getAddress() instanceof Inet6Address;
        int fd = ErrnoException.check("socket", LibC.socket(v6 ? LibC.AF_INET6 : LibC.AF_INET,
                LibC.SOCK_STREAM | LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC, 0));
        try (Memory sa = SockAddr.of(address.getAddress(), address.getPort())) {
            setFlag(fd, LibC.IPPROTO_TCP, LibC.TCP_NODELAY);
            if (LibC.connect(fd, sa, (int) sa.size()) < 0 && LibC.errno() != Errno.EINPROGRESS) throw ErrnoException.last("connect");
            return fd;
        } catch (ErrnoException e) {
            LibC.close(fd);
            throw e;
        }
    }

    /** The outcome of a non-blocking connect once the socket is writable: 0, or its errno (ECONNREFUSED...). */
    public static int connectError(int fd) {
        try (Memory value = new Memory(4); Memory len = new Memory(4)) {
            len.setInt(0, 4);
            if (LibC.getsockopt(fd, LibC.SOL_SOCKET, LibC.SO_ERROR, value, len) < 0) return LibC.errno();
            return value.getInt(0);
        }
    }

    /** getsockname: the address {@code fd} is bound to. */
    public static InetSocketAddress localAddress(int fd) throws ErrnoException, UnknownHostException {
        try (Memory sa = new Memory(SockAddr.MAX_SIZE); Memory len = new Memory(4)) {
            sa.clear();
            len.setInt(0, SockAddr.MAX_SIZE);
            ErrnoException.check("getsockname", LibC.getsockname(fd, sa, len));
            return SockAddr.parse(sa);
        }
    }

    /** Sets a boolean option to 1; returns 0 or the errno. Allocates nothing (per-accept TCP_NODELAY). */
    public static int setFlag(int fd, int level, int name) {
        return LibC.setsockopt(fd, level, name, ONE, 4) == 0 ? 0 : LibC.errno();
    }

    private static void setFlag(int fd, int level, int name, String call) throws ErrnoException {
        int err = setFlag(fd, level, name);
        if (err != 0) throw new ErrnoException(call, err);
    }
}
