package niolab.epoll;

import java.nio.ByteBuffer;

/**
 * Native memory seen two ways at once: its {@link #address()} for the calls of a
 * {@link Syscalls}, and a direct ByteBuffer {@link #view()} over the same bytes for Java code
 * (a parser, a struct reader). Both are taken once, at allocation; using them allocates nothing.
 *
 * <pre>
 *   try (NativeBuffer in = NativeBuffer.allocate(sys, 16384)) {
 *       long n = sys.read(fd, in.address(), in.size());
 *       in.view().limit((int) n).position(0);                  // what the parser reads
 *   }
 * </pre>
 * Not thread-safe, like the loop that owns it. The view is in big-endian order, as every new
 * ByteBuffer is; a struct reader sets the native order on it.
 */
public final class NativeBuffer implements AutoCloseable {
    private final Syscalls sys;
    private final long address;
    private final int size;
    private final ByteBuffer view;
    private boolean freed;

    private NativeBuffer(Syscalls sys, int size) {
        this.sys = sys;
        this.size = size;
        this.address = sys.allocate(size);
        this.view = sys.buffer(address, size);
    }

    /** {@code size} zeroed bytes from {@code sys}'s allocator. */
    public static NativeBuffer allocate(Syscalls sys, int size) {
        if (size <= 0) throw new IllegalArgumentException("size must be positive: " + size);
        return new NativeBuffer(sys, size);
    }

    public long address() {
        return address;
    }

    public int size() {
        return size;
    }

    public ByteBuffer view() {
        return view;
    }

    /** Frees the memory once; the address and the view must not be used afterwards. */
    @Override
    public void close() {
        if (freed) return;
        freed = true;
        sys.free(address);
    }
}
