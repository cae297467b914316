package niolab.epoll;

import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One native array of {@code struct epoll_event} for {@code epoll_wait} to fill, read in place.
 *
 * <pre>
 *   struct epoll_event { uint32_t events; epoll_data_t data; }   // data: a 64-bit union
 * </pre>
 * The kernel declares it packed on x86_64, so there it is 12 bytes with {@code data} at offset 4;
 * everywhere else it is 16 bytes with {@code data} at offset 8. A C compiler knows; a binding
 * does not (JNA's default {@code Structure} alignment would put {@code data} at 8 on x86_64 too
 * and read garbage), so this class does the offsets itself. Events are read through a ByteBuffer
 * view of the array in native order: an intrinsic load each, no call into the binding, no allocation.
 *
 * <pre>
 *   EpollEvents events = new EpollEvents(sys, 256);
 *   int n = sys.epoll_wait(epfd, events.address(), events.capacity(), -1);
 *   for (int i = 0; i &lt; n; i++) handle((int) events.data(i), events.events(i));
 * </pre>
 */
public final class EpollEvents implements AutoCloseable {
    /** True where the kernel's {@code struct epoll_event} is packed (x86_64). */
    public static final boolean PACKED = isPacked(System.getProperty("os.arch", ""));
    /** Bytes from one event to the next. */
    public static final int STRIDE = PACKED ? 12 : 16;
    /** Where {@code data} sits inside an event. */
    public static final int DATA_OFFSET = PACKED ? 4 : 8;

    private final NativeBuffer memory;
    private final ByteBuffer view;
    private final int capacity;
    /** Made on first use by {@link #pointer()} only, so that an FFM loop never loads JNA. */
    private Pointer pointer;

    /** An array allocated through {@code sys}, for its {@code epoll_wait}. */
    public EpollEvents(Syscalls sys, int capacity) {
        this.capacity = capacity;
        this.memory = NativeBuffer.allocate(sys, capacity * STRIDE);
        this.view = memory.view().order(ByteOrder.nativeOrder());
    }

    static boolean isPacked(String osArch) {
        return osArch.equals("amd64") || osArch.equals("x86_64");
    }

    /** The array, for {@code epoll_wait}; also a single event for {@code epoll_ctl}. */
    public long address() {
        return memory.address();
    }

    /** The array as a JNA Pointer, for {@link LibC#epoll_wait(int, Pointer, int, int)}. */
    public Pointer pointer() {
        if (pointer == null) pointer = new Pointer(memory.address());
        return pointer;
    }

    public int capacity() {
        return capacity;
    }

    /** The ready mask of event {@code i} (EPOLLIN, EPOLLOUT, ...). */
    public int events(int i) {
        return view.getInt(i * STRIDE);
    }

    /** The {@code data} of event {@code i}: what was registered with it (the fd, here). */
    public long data(int i) {
        return view.getLong(i * STRIDE + DATA_OFFSET);
    }

    /** Writes event {@code i}: for {@code epoll_ctl}, which reads one event. */
    public void set(int i, int events, long data) {
        view.putInt(i * STRIDE, events);
        view.putLong(i * STRIDE + DATA_OFFSET, data);
    }

    @Override
    public void close() {
        memory.close();
    }
}
