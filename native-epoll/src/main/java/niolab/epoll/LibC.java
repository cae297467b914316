package niolab.epoll;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The libc calls the {@code et} server makes, bound by JNA <em>direct mapping</em>
 * ({@link Native#register}): each is a static native method that calls the C function with no
 * reflection, no proxy and no boxing, which is what keeps a JNA call cheap enough for a hot loop.
 *
 * <p>Conventions, so that hot paths allocate nothing:
 * <ul>
 *   <li>Data buffers are raw addresses ({@code long}), taken once from a {@code Memory} with
 *       {@link Pointer#nativeValue}; sizes ({@code size_t}, {@code ssize_t}) are {@code long}.
 *       Both need a 64-bit process: {@link Epoll#isSupported()} checks it.</li>
 *   <li>Small structs (a sockaddr, one {@code epoll_event}, an int option) are {@link Pointer}s
 *       to memory allocated once by the caller.</li>
 *   <li>A call that fails returns -1; read errno with {@link #errno()} before the next native
 *       call on this thread. Methods are not declared {@code throws LastErrorException}: JNA
 *       would build and throw an exception per failure, and {@code EAGAIN} is a normal
 *       outcome of every non-blocking read that finds nothing.</li>
 * </ul>
 * Constants are the Linux values for x86_64 and aarch64 (asm-generic), named once here and in
 * {@link Errno}.
 */
public final class LibC {
    // socket(2), setsockopt(2), shutdown(2), send(2)
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;
    public static final int SOCK_STREAM = 1;
    public static final int SOCK_NONBLOCK = 0x800;
    public static final int SOCK_CLOEXEC = 0x80000;
    public static final int SOL_SOCKET = 1;
    public static final int SO_REUSEADDR = 2;
    public static final int SO_ERROR = 4;
    public static final int SO_SNDBUF = 7;
    public static final int SO_RCVBUF = 8;
    public static final int SO_REUSEPORT = 15;
    public static final int IPPROTO_TCP = 6;
    public static final int TCP_NODELAY = 1;
    public static final int IPPROTO_IPV6 = 41;
    public static final int IPV6_V6ONLY = 26;
    public static final int SHUT_RD = 0;
    public static final int SHUT_WR = 1;
    public static final int SHUT_RDWR = 2;
    /** send(2) flag: a closed peer gives EPIPE instead of raising SIGPIPE. */
    public static final int MSG_NOSIGNAL = 0x4000;

    // epoll(7), eventfd(2)
    public static final int EPOLL_CLOEXEC = 0x80000;
    public static final int EPOLL_CTL_ADD = 1;
    public static final int EPOLL_CTL_DEL = 2;
    public static final int EPOLL_CTL_MOD = 3;
    public static final int EPOLLIN = 0x001;
    public static final int EPOLLOUT = 0x004;
    public static final int EPOLLERR = 0x008;
    public static final int EPOLLHUP = 0x010;
    public static final int EPOLLRDHUP = 0x2000;
    public static final int EPOLLET = 1 << 31;
    public static final int EFD_NONBLOCK = 0x800;
    public static final int EFD_CLOEXEC = 0x80000;

    static {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {
    }

    /** errno of this thread's last failed call here; JNA saves it right after every native call. */
    public static int errno() {
        return Native.getLastError();
    }

    public static native int socket(int domain, int type, int protocol);

    public static native int setsockopt(int fd, int level, int name, Pointer value, int length);

    public static native int getsockopt(int fd, int level, int name, Pointer value, Pointer lengthInOut);

    public static native int bind(int fd, Pointer sockaddr, int length);

    public static native int listen(int fd, int backlog);

    /** {@code addr} and {@code addrlen} may be null: the server does not need the peer's address. */
    public static native int accept4(int fd, Pointer addr, Pointer addrlen, int flags);

    public static native int connect(int fd, Pointer sockaddr, int length);

    public static native int getsockname(int fd, Pointer sockaddr, Pointer lengthInOut);

    public static native long read(int fd, long buf, long count);

    public static native long write(int fd, long buf, long count);

    public static native long send(int fd, long buf, long count, int flags);

    public static native int shutdown(int fd, int how);

    public static native int close(int fd);

    public static native int epoll_create1(int flags);

    public static native int epoll_ctl(int epfd, int op, int fd, Pointer event);

    public static native int epoll_wait(int epfd, Pointer events, int maxEvents, int timeoutMs);

    public static native int eventfd(int initialValue, int flags);

    public static native long memcpy(long dst, long src, long count);

    /** The C library's message for {@code errnum}, in the process locale. */
    public static native String strerror(int errnum);
}
