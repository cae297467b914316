package niolab.microbench;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
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
 * The JDK's own way to the same calls, as {@code lt} makes them: {@link SocketChannel} read and
 * write on non-blocking channels (direct buffers, so no copy), and for epoll_wait a
 * {@link Selector#selectNow()} on a selector with no channel (epoll_wait with timeout 0, plus the
 * selector's own bookkeeping). The set-up and the send batch are {@link SyscallCosts}'.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@State(Scope.Thread)
public class SocketChannelCosts {
    private Selector selector;
    private SocketChannel sender;
    private SocketChannel receiver;
    private final ByteBuffer out = ByteBuffer.allocateDirect(SyscallCosts.PAYLOAD);
    private final ByteBuffer in = ByteBuffer.allocateDirect(SyscallCosts.READ_SIZE);
    private long shortWrites;

    @Setup(Level.Trial)
    public void open() throws Exception {
        selector = Selector.open();
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            sender = SocketChannel.open(listener.getLocalAddress());
            receiver = listener.accept();
        }
        sender.configureBlocking(false);
        receiver.configureBlocking(false);
        sender.setOption(StandardSocketOptions.TCP_NODELAY, true);
    }

    @Benchmark
    public int epollWait() throws Exception {
        return selector.selectNow();
    }

    /** Reads the channel that never receives anything: 0. */
    @Benchmark
    public int readEagain() throws Exception {
        in.clear();
        return sender.read(in);
    }

    @Setup(Level.Invocation)
    public void drainPeer() throws Exception {
        do {
            in.clear();
        } while (receiver.read(in) > 0);
    }

    @Benchmark
    @OperationsPerInvocation(SyscallCosts.SEND_BATCH)
    public long send64() throws Exception {
        long shortWrites = 0;
        for (int i = 0; i < SyscallCosts.SEND_BATCH; i++) {
            out.clear();
            if (sender.write(out) != SyscallCosts.PAYLOAD) shortWrites++;
        }
        this.shortWrites += shortWrites;
        return shortWrites;
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        sender.close();
        receiver.close();
        selector.close();
        if (shortWrites > 0) throw new IllegalStateException(shortWrites + " writes did not take all 64 bytes");
    }
}
