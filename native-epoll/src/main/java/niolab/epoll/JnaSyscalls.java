package niolab.epoll;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link Syscalls} through JNA direct mapping: each method is one call of a static native method
 * of {@link LibC}. Where only this binding is loaded, C2 inlines the interface call down to the
 * native method, so the loop pays what it paid calling LibC itself. Thread-safe: JNA keeps errno
 * per thread.
 */
final class JnaSyscalls implements Syscalls {
    static final JnaSyscalls INSTANCE = new JnaSyscalls();

    /** The int 1 for {@link #setFlag}; never written after this, so threads may share it. */
    private final long one;

    private JnaSyscalls() {
        one = allocate(Integer.BYTES);
        buffer(one, Integer.BYTES).order(ByteOrder.nativeOrder()).putInt(0, 1);
    }

    @Override
    public String name() {
        return "jna";
    }

    @Override
    public int errno() {
        return Native.getLastError();
    }

    @Override
    public int epoll_wait(int epfd, long events, int maxEvents, int timeoutMs) {
        return LibC.epoll_wait(epfd, events, maxEvents, timeoutMs);
    }

    @Override
    public int epoll_ctl(int epfd, int op, int fd, long event) {
        return LibC.epoll_ctl(epfd, op, fd, event);
    }

    @Override
    public int accept4(int fd, int flags) {
        return LibC.accept4(fd, 0L, 0L, flags);
    }

    @Override
    public long read(int fd, long buffer, long count) {
        return LibC.read(fd, buffer, count);
    }

    @Override
    public long send(int fd, long buffer, long count, int flags) {
        return LibC.send(fd, buffer, count, flags);
    }

    @Override
    public long write(int fd, long buffer, long count) {
        return LibC.write(fd, buffer, count);
    }

    @Override
    public int setFlag(int fd, int level, int name) {
        return LibC.setsockopt(fd, level, name, one, Integer.BYTES);
    }

    @Override
    public int close(int fd) {
        return LibC.close(fd);
    }

    @Override
    public long memcpy(long dst, long src, long count) {
        return LibC.memcpy(dst, src, count);
    }

    @Override
    public int socket(int domain, int type, int protocol) {
        return LibC.socket(domain, type, protocol);
    }

    @Override
    public int setsockopt(int fd, int level, int name, long value, int length) {
        return LibC.setsockopt(fd, level, name, value, length);
    }

    @Override
    public int bind(int fd, long sockaddr, int length) {
        return LibC.bind(fd, sockaddr, length);
    }

    @Override
    public int listen(int fd, int backlog) {
        return LibC.listen(fd, backlog);
    }

    @Override
    public int connect(int fd, long sockaddr, int length) {
        return LibC.connect(fd, sockaddr, length);
    }

    @Override
    public int getsockname(int fd, long sockaddr, long lengthInOut) {
        return LibC.getsockname(fd, sockaddr, lengthInOut);
    }

    @Override
    public int getsockopt(int fd, int level, int name, long value, long lengthInOut) {
        return LibC.getsockopt(fd, level, name, value, lengthInOut);
    }

    @Override
    public int shutdown(int fd, int how) {
        return LibC.shutdown(fd, how);
    }

    @Override
    public int epoll_create1(int flags) {
        return LibC.epoll_create1(flags);
    }

    @Override
    public int eventfd(int initialValue, int flags) {
        return LibC.eventfd(initialValue, flags);
    }

    @Override
    public String strerror(int errnum) {
        return LibC.strerror(errnum);
    }

    @Override
    public long allocate(long size) {
        long address = LibC.calloc(1, size);
        if (address == 0) throw new OutOfMemoryError("calloc(" + size + ") failed");
        return address;
    }

    @Override
    public void free(long address) {
        LibC.free(address);
    }

    @Override
    public ByteBuffer buffer(long address, int length) {
        return new Pointer(address).getByteBuffer(0, length);
    }

    @Override
    public long address(ByteBuffer direct) {
        return Pointer.nativeValue(Native.getDirectBufferPointer(direct));
    }
}
