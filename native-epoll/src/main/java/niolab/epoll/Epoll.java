package niolab.epoll;

/**
 * An epoll instance: the checked, allocation-free wrappers the event loop calls outside its
 * hot path. The hot path itself calls {@code epoll_wait} on {@link #fd()}.
 *
 * <pre>
 *   if (!Epoll.isSupported()) ...                      // not Linux, or not 64-bit
 *   Epoll ep = Epoll.create(sys);
 *   ep.add(fd, Linux.EPOLLIN | Linux.EPOLLET, fd);     // data comes back with each event
 *   int n = sys.epoll_wait(ep.fd(), events.address(), events.capacity(), -1);
 * </pre>
 */
public final class Epoll implements AutoCloseable {
    private final Syscalls sys;
    private final int fd;
    /** One event for epoll_ctl, reused: registering a connection allocates nothing. */
    private final EpollEvents ctl;

    private Epoll(Syscalls sys, int fd) {
        this.sys = sys;
        this.fd = fd;
        this.ctl = new EpollEvents(sys, 1);
    }

    /** True on 64-bit Linux, where this module's bindings and layouts hold. Loads no binding. */
    public static boolean isSupported() {
        int pointerSize = "64".equals(System.getProperty("sun.arch.data.model")) ? 8 : 4;
        return isSupported(System.getProperty("os.name", ""), pointerSize);
    }

    static boolean isSupported(String osName, int pointerSize) {
        return osName.startsWith("Linux") && pointerSize == 8;
    }

    /** An epoll instance whose calls go through {@code sys}. */
    public static Epoll create(Syscalls sys) throws ErrnoException {
        return new Epoll(sys, ErrnoException.check(sys, "epoll_create1", sys.epoll_create1(Linux.EPOLL_CLOEXEC)));
    }

    public int fd() {
        return fd;
    }

    /** {@code epoll_ctl(ADD)}; returns 0, or the errno (ENOMEM, ENOSPC) for the caller to handle. */
    public int add(int target, int events, long data) {
        return control(Linux.EPOLL_CTL_ADD, target, events, data);
    }

    /** {@code epoll_ctl(MOD)}; returns 0 or the errno. */
    public int modify(int target, int events, long data) {
        return control(Linux.EPOLL_CTL_MOD, target, events, data);
    }

    private int control(int op, int target, int events, long data) {
        ctl.set(0, events, data);
        return sys.epoll_ctl(fd, op, target, ctl.address()) == 0 ? 0 : sys.errno();
    }

    @Override
    public void close() {
        sys.close(fd);
        ctl.close();
    }
}
