package niolab.epoll;

/**
 * The Linux constants the lab's calls take, named once for every binding: the values for
 * x86_64 and aarch64 (asm-generic). Errno values are in {@link Errno}.
 *
 * <p>The class only holds constants, so naming one loads no binding: javac copies the value
 * into the caller. {@link LibC} extends it so that {@code LibC.EPOLLIN} keeps meaning the same.
 */
public class Linux {
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
    /** Linux 4.5+: of the epoll instances watching one fd with this flag, wake one per event (ADD only). */
    public static final int EPOLLEXCLUSIVE = 1 << 28;
    public static final int EFD_NONBLOCK = 0x800;
    public static final int EFD_CLOEXEC = 0x80000;

    /** Only {@link LibC} extends it; nothing makes one. */
    Linux() {
    }
}
