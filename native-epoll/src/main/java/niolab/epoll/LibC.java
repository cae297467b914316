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
 * The constants are {@link Linux}'s. {@link Syscalls} is the same set of calls for code that must
 * not care which binding it runs on; {@link Bindings#jna()} is this class behind it.
 */
public final class LibC extends Linux {
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

    // The same calls taking raw addresses as longs, as read and send do: what JnaSyscalls calls.

    public static native int setsockopt(int fd, int level, int name, long value, int length);

    public static native int bind(int fd, long sockaddr, int length);

    public static native int accept4(int fd, long addr, long addrlen, int flags);

    public static native int connect(int fd, long sockaddr, int length);

    public static native int getsockname(int fd, long sockaddr, long lengthInOut);

    public static native int getsockopt(int fd, int level, int name, long value, long lengthInOut);

    public static native int epoll_ctl(int epfd, int op, int fd, long event);

    public static native int epoll_wait(int epfd, long events, int maxEvents, int timeoutMs);

    public static native long calloc(long count, long size);

    public static native void free(long address);
}
