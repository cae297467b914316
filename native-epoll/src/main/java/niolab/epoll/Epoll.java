package niolab.epoll;

import com.sun.jna.Native;

/**
 * An epoll instance: the checked, allocation-free wrappers the event loop calls outside its
 * hot path. The hot path itself calls {@link LibC#epoll_wait} on {@link #fd()}.
 *
 * <pre>
 *   if (!Epoll.isSupported()) ...                     // not Linux, or not 64-bit
 *   Epoll ep = Epoll.create();
 *   ep.add(fd, LibC.EPOLLIN | LibC.EPOLLET, fd);      // data comes back with each event
 *   int n = LibC.epoll_wait(ep.fd(), events.pointer(), events.capacity(), -1);
 * </pre>
 */
public final class Epoll implements AutoCloseable {
    private final int fd;
    /** One event for epoll_ctl, reused: registering a connection allocates nothing. */
    private final EpollEvents ctl = new EpollEvents(1);

    private Epoll(int fd) {
        this.fd = fd;
    }

    /** True on 64-bit Linux, where this module's bindings and layouts hold. */
    public static boolean isSupported() {
        String os = System.getProperty("os.name", "");
        // Ask JNA (which loads its native part) only on Linux.
        return os.startsWith("Linux") && isSupported(os, Native.POINTER_SIZE);
    }

    static boolean isSupported(String osName, int pointerSize) {
        return osName.startsWith("Linux") && pointerSize == 8;
    }

    public static Epoll create() throws ErrnoException {
        return new Epoll(ErrnoException.check("epoll_create1", LibC.epoll_create1(LibC.EPOLL_CLOEXEC)));
    }

    public int fd() {
        return fd;
    }

    /** {@code epoll_ctl(ADD)}; returns 0, or the errno (ENOMEM, ENOSPC) for the caller to handle. */
    public int add(int target, int events, long data) {
        ctl.set(0, events, data);
        return LibC.epoll_ctl(fd, LibC.EPOLL_CTL_ADD, target, ctl.pointer()) == 0 ? 0 : LibC.errno();
    }

    /** {@code epoll_ctl(MOD)}; returns 0 or the errno. */
    public int modify(int target, int events, long data) {
        ctl.set(0, events, data);
        return LibC.epoll_ctl(fd, LibC.EPOLL_CTL_MOD, target, ctl.pointer()) == 0 ? 0 : LibC.errno();
    }

    @Override
    public void close() {
        LibC.close(fd);
        ctl.close();
    }
}
