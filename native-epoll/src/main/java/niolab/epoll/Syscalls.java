package niolab.epoll;

import java.nio.ByteBuffer;

/**
 * The Linux calls an epoll event loop makes, whichever binding carries them to libc:
 * {@link Bindings#jna()} (JNA direct mapping) or {@link Bindings#ffm()} (the FFM API, JDK 22+).
 * Each method is the C function of the same name, with the C conventions kept on purpose:
 *
 * <ul>
 *   <li>A call that fails returns -1; {@link #errno()} then tells why, until the next call on
 *       the same thread. No exceptions: EAGAIN is the normal end of every non-blocking read.</li>
 *   <li>Memory is a raw address ({@code long}) from {@link #allocate}; sizes ({@code size_t},
 *       {@code ssize_t}) are {@code long}. Both need a 64-bit process ({@link Epoll#isSupported()}).</li>
 *   <li>{@code accept4}, {@code read}, {@code send}, {@code write}, {@code epoll_ctl} and
 *       {@code setsockopt} are given <em>non-blocking</em> descriptors only. A binding may run them
 *       as calls that hold up the JVM's safepoints for their duration (FFM's critical calls), which
 *       is harmless only because they return at once.</li>
 * </ul>
 *
 * <pre>
 *   Syscalls sys = Bindings.named("ffm");                  // one per loop; its thread is the one that waits
 *   NativeBuffer in = NativeBuffer.allocate(sys, 16384);   // in.address() for read, in.view() for a parser
 *   long n = sys.read(fd, in.address(), in.size());
 *   if (n < 0 &amp;&amp; sys.errno() == Errno.EAGAIN) ...       // drained
 * </pre>
 */
public interface Syscalls {

    /** {@code jna} or {@code ffm}: what {@code --binding} calls it. */
    String name();

    /** errno of this thread's last failed call through this binding (errno is per thread, as in C). */
    int errno();

    // The event loop's calls, made per event or per connection.

    /** The loop's wait: one thread calls it on a binding instance, the loop's (see {@link Bindings#ffm()}). */
    int epoll_wait(int epfd, long events, int maxEvents, int timeoutMs);

    int epoll_ctl(int epfd, int op, int fd, long event);

    /** {@code accept4(fd, NULL, NULL, flags)}: a server that does not ask for the peer's address. */
    int accept4(int fd, int flags);

    long read(int fd, long buffer, long count);

    long send(int fd, long buffer, long count, int flags);

    long write(int fd, long buffer, long count);

    /**
     * {@code setsockopt(fd, level, name, &one, sizeof(int))}: turns a boolean option on (such as
     * TCP_NODELAY on each accepted socket) with an int the binding keeps, so it allocates nothing.
     */
    int setFlag(int fd, int level, int name);

    int close(int fd);

    long memcpy(long dst, long src, long count);

    // Setup and teardown.

    int socket(int domain, int type, int protocol);

    int setsockopt(int fd, int level, int name, long value, int length);

    int bind(int fd, long sockaddr, int length);

    int listen(int fd, int backlog);

    int connect(int fd, long sockaddr, int length);

    int getsockname(int fd, long sockaddr, long lengthInOut);

    int getsockopt(int fd, int level, int name, long value, long lengthInOut);

    int shutdown(int fd, int how);

    int epoll_create1(int flags);

    int eventfd(int initialValue, int flags);

    /** The C library's message for {@code errnum}, in the process locale. */
    String strerror(int errnum);

    // Native memory, handed to the calls above by address.

    /** {@code size} zeroed bytes (calloc); throws {@link OutOfMemoryError} when there are none. */
    long allocate(long size);

    /** Frees what {@link #allocate} returned. */
    void free(long address);

    /** A direct ByteBuffer over {@code [address, address + length)}: the same memory, no copy. */
    ByteBuffer buffer(long address, int length);

    /** The address of a direct buffer's element 0 (its position is not added). Allocates: not for hot paths. */
    long address(ByteBuffer direct);
}
