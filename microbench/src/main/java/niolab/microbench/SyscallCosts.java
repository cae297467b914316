package niolab.microbench;

import java.util.concurrent.TimeUnit;
import niolab.epoll.Epoll;
import niolab.epoll.EpollEvents;
import niolab.epoll.Errno;
import niolab.epoll.Linux;
import niolab.epoll.NativeBuffer;
import niolab.epoll.Sockets;
import niolab.epoll.Syscalls;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What one hot-path call of an epoll loop costs through a {@link Syscalls} binding, in ns: the
 * same calls as {@code microbench/src/main/c/syscall-cost.c}, on the same set-up, so that a
 * binding's overhead is its figure minus C's. A subclass names the binding.
 *
 * <ul>
 *   <li>{@code epollWait}: {@code epoll_wait(epfd, events, 64, 0)} on a set with nothing in it.</li>
 *   <li>{@code readEagain}: {@code read} of 64 KiB on a non-blocking TCP socket with nothing to read.</li>
 *   <li>{@code send64}: a 64-byte {@code send} on a non-blocking TCP_NODELAY socket over 127.0.0.1.
 *       Its peer must not fill up, and draining it must not be timed: so one invocation is
 *       {@link #SEND_BATCH} sends (about a millisecond, so the per-invocation fixture costs
 *       nothing measurable), and the peer is drained before each in a {@code Level.Invocation}
 *       set-up, outside the measured time. The batch stays far below the peer's receive buffer:
 *       a send that does not take all 64 bytes fails the run instead of being counted.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Thread)
public abstract class SyscallCosts {
    /** Sends per invocation of {@link #send64}; the C program uses the same batch. */
    public static final int SEND_BATCH = 256;
    static final int PAYLOAD = 64;
    static final int READ_SIZE = 65536;
    private static final int MAX_EVENTS = 64;

    private Syscalls sys;
    private Epoll epoll;
    private EpollEvents events;
    private NativeBuffer out;
    private NativeBuffer in;
    private int sender = -1;
    private int receiver = -1;
    // Copied into plain fields: the measured methods read nothing but fields of this state.
    private int epfd;
    private long eventsAddress;
    private long outAddress;
    private long inAddress;
    private long shortSends;

    /** The binding measured, made on the benchmark thread. */
    protected abstract Syscalls binding();

    @Setup(Level.Trial)
    public void open() throws Exception {
        sys = binding();
        epoll = Epoll.create(sys);
        events = new EpollEvents(sys, MAX_EVENTS);
        out = NativeBuffer.allocate(sys, PAYLOAD);
        in = NativeBuffer.allocate(sys, READ_SIZE);
        int[] pair = Sockets.loopbackPair(sys);
        sender = pair[0];
        receiver = pair[1];
        if (Sockets.setFlag(sys, sender, Linux.IPPROTO_TCP, Linux.TCP_NODELAY) != 0) throw new IllegalStateException("TCP_NODELAY");
        epfd = epoll.fd();
        eventsAddress = events.address();
        outAddress = out.address();
        inAddress = in.address();
        // As a loop starts: its thread is the one that waits (FFM gives it the errno segment made with the binding).
        sys.epoll_wait(epfd, eventsAddress, MAX_EVENTS, 0);
    }

    @Benchmark
    public int epollWait() {
        return sys.epoll_wait(epfd, eventsAddress, MAX_EVENTS, 0);
    }

    /** Reads the socket that never receives anything: -1, EAGAIN. */
    @Benchmark
    public long readEagain() {
        return sys.read(sender, inAddress, READ_SIZE);
    }

    @Setup(Level.Invocation)
    public void drainPeer() {
        while (sys.read(receiver, inAddress, READ_SIZE) > 0) {
            // until EAGAIN: the peer's receive queue is empty again
        }
    }

    @Benchmark
    @OperationsPerInvocation(SEND_BATCH)
    public long send64() {
        long shortSends = 0;
        for (int i = 0; i < SEND_BATCH; i++) {
            if (sys.send(sender, outAddress, PAYLOAD, Linux.MSG_NOSIGNAL) != PAYLOAD) shortSends++;
        }
        this.shortSends += shortSends;
        return shortSends;
    }

    @TearDown(Level.Trial)
    public void close() {
        sys.close(sender);
        sys.close(receiver);
        epoll.close();
        events.close();
        out.close();
        in.close();
        if (shortSends > 0) {
            throw new IllegalStateException(shortSends + " sends did not take all " + PAYLOAD
                    + " bytes (last errno " + Errno.name(sys.errno()) + "): the peer must be drained more often");
        }
    }
}
