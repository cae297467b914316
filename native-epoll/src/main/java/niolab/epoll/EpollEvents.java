package niolab.epoll;

import com.sun.jna.Memory;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * One native array of {@code struct epoll_event} for {@code epoll_wait} to fill, read in place.
 *
 * <pre>
 *   struct epoll_event { uint32_t events; epoll_data_t data; }   // data: a 64-bit union
 * </pre>
 * The kernel declares it packed on x86_64, so there it is 12 bytes with {@code data} at offset 4;
 * everywhere else it is 16 bytes with {@code data} at offset 8. JNA's default {@code Structure}
 * alignment would put {@code data} at 8 on x86_64 too and read garbage, so this class does the
 * offsets itself. Reading an event is two {@code Pointer.getInt/getLong} calls: no allocation.
 */
public final class EpollEvents implements AutoCloseable {
    /** True where the kernel's {@code struct epoll_event} is packed (x86_64). */
    public static final boolean PACKED = "x86-64".equals(Platform.ARCH);
    /** Bytes from one event to the next. */
    public static final int STRIDE = PACKED ? 12 : 16;
    /** Where {@code data} sits inside an event. */
    public static final int DATA_OFFSET = PACKED ? 4 : 8;

    private final Memory memory;
    private final int capacity;

    public EpollEvents(int capacity) {
        this.capacity = capacity;
        this.memory = new Memory((long) capacity * STRIDE);
        memory.clear();
    }

    /** The array, for {@code epoll_wait}; also a single event for {@code epoll_ctl}. */
    public Pointer pointer() {
        return memory;
    }

    public int capacity() {
        return capacity;
    }

    /** The ready mask of event {@code i} (EPOLLIN, EPOLLOUT, ...). */
    public int events(int i) {
        return memory.getInt((long) i * STRIDE);
    }

    /** The {@code data} of event {@code i}: what was registered with it (the fd, here). */
    public long data(int i) {
        return memory.getLong((long) i * STRIDE + DATA_OFFSET);
    }

    /** Writes event {@code i}: for {@code epoll_ctl}, which reads one event. */
    public void set(int i, int events, long data) {
        memory.setInt((long) i * STRIDE, events);
        memory.setLong((long) i * STRIDE + DATA_OFFSET, data);
    }

    @Override
    public void close() {
        memory.close();
    }
}
