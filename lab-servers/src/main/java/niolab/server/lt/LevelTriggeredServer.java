package niolab.server.lt;

import java.io.IOException;
import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import niolab.server.Counters;
import niolab.server.EventLoopServer;
import niolab.server.IdleSweep;
import niolab.server.ServerOptions;

/**
 * The {@code lt} architecture: one thread, one {@link Selector} (the JDK drives epoll in its
 * default level-triggered mode) and non-blocking channels. This class is the loop (accept,
 * dispatch, graceful drain, close); a subclass speaks the protocol:
 * {@link LevelTriggeredEchoServer} or {@link LevelTriggeredHttpServer}.
 *
 * <p>A connection is in one of two states. Normally it is registered for OP_READ only. When a
 * write is partial, the subclass keeps the unwritten rest and the connection is registered for
 * OP_WRITE only, until that rest has gone out. So pending output never exceeds one buffer per
 * connection, and a client that does not read simply stops being read from: its unread bytes
 * wait in the kernel (backpressure).
 */
public abstract class LevelTriggeredServer implements EventLoopServer {
    private static final int ACCEPTS_PER_WAKEUP = 64;
    private static final long ACCEPT_BACKOFF_MS = 100;
    private static final long DRAIN_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    protected final ServerOptions options;
    protected final Counters counters = new Counters();
    private final PrintStream log = System.err;
    private final Selector selector;
    private final String protocol;
    /** Created once: {@code select(Consumer)} is called per wakeup, and {@code this::onReady} would allocate each time. */
    private final Consumer<SelectionKey> onReady = this::onReady;
    protected final IdleSweep idle;

    private ServerSocketChannel listener;
    private SelectionKey listenKey;
    private volatile boolean running = true;
    /** When accepting resumes after a failed accept (EMFILE...); 0 while accepting normally. */
    private long acceptResumeAt;
    private boolean acceptFailing;

    protected LevelTriggeredServer(ServerOptions options, String protocol) {
        this.options = options;
        this.protocol = protocol;
        this.idle = new IdleSweep(options.idleTimeout);
        // Loaded now, not at some accept: after EMFILE, loading a class may need a descriptor.
        LtConnection.class.getName();
        try {
            this.selector = Selector.open();
            initializeChannelWrites();
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a selector: " + e.getMessage(), e);
        }
    }

    /**
     * The JDK sets up its file dispatcher on the first channel write, and the setup opens a
     * socketpair. Left to the first echo, that may come when descriptors have run out: the setup
     * fails and the loop dies (found by the fault suite; Netty 4.2's NIO loop died the same way
     * loading time-zone data). So write once now, to a pipe.
     */
    private static void initializeChannelWrites() throws IOException {
        Pipe pipe = Pipe.open();
        try (Pipe.SinkChannel sink = pipe.sink(); Pipe.SourceChannel source = pipe.source()) {
            sink.write(ByteBuffer.allocate(1));
        }
    }

    @Override
    public InetSocketAddress bind() throws IOException {
        InetSocketAddress local = new InetSocketAddress(options.host, options.port);
        if (local.isUnresolved()) throw new UnresolvedAddressException();
        // The socket family follows the address: left to itself the JDK opens a dual-stack
        // AF_INET6 socket even for 127.0.0.1, and SO_REUSEPORT groups only sockets of one family.
        listener = ServerSocketChannel.open(local.getAddress() instanceof Inet4Address
                ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
        listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        if (options.reusePort) listener.setOption(StandardSocketOptions.SO_REUSEPORT, true);
        listener.bind(local, options.backlog);
        listener.configureBlocking(false);
        listenKey = listener.register(selector, SelectionKey.OP_ACCEPT);
        return (InetSocketAddress) listener.getLocalAddress();
    }

    @Override
    public void run() throws IOException {
        try {
            while (running) {
                // Block without a timeout unless a paused accept has to be retried or an idle sweep is due.
                counters.events += selector.select(onReady, idle.waitMillis(acceptResumeAt == 0 ? 0 : ACCEPT_BACKOFF_MS, 0));
                counters.waits++;
                if (acceptResumeAt != 0 && System.nanoTime() - acceptResumeAt >= 0) resumeAccepting();
                if (idle.enabled && idle.due()) closeIdleConnections();
            }
            drain();
        } finally {
            closeEverything();
        }
    }

    private void onReady(SelectionKey key) {
        if (key == listenKey) {
            accept();
            return;
        }
        if (idle.enabled) ((LtConnection) key.attachment()).lastActive = idle.sweeps;
        try {
            if (key.isWritable()) {
                onWritable(key);
            } else if (key.isReadable()) {
                onReadable(key);
            }
        } catch (IOException e) {
            counters.resets++; // reset by peer, broken pipe: this connection only
            close(key);
        }
    }

    private void accept() {
        // Level-triggered: connections left in the backlog are reported again on the next select.
        for (int i = 0; i < ACCEPTS_PER_WAKEUP; i++) {
            SocketChannel ch;
            try {
                ch = listener.accept();
            } catch (IOException e) {
                pauseAccepting(e);
                return;
            }
            if (ch == null) {
                // The backlog is drained: a failure episode, if any, is over. (Not at the first
                // accept that works: freed descriptors let a few in, then accept fails again.)
                acceptFailing = false;
                return;
            }
            counters.accepts++;
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.register(selector, SelectionKey.OP_READ, newAttachment());
            } catch (IOException e) {
                counters.resets++;
                closeQuietly(ch);
            }
        }
    }

    /** The connection has bytes to read (and nothing pending to write). */
    protected abstract void onReadable(SelectionKey key) throws IOException;

    /** The connection registered for OP_WRITE (output is pending) can take more. */
    protected abstract void onWritable(SelectionKey key) throws IOException;

    /**
     * A new connection's attachment: with {@code --idle-timeout} every connection needs one for
     * its last-activity stamp; otherwise the echo server attaches one only at a first partial write.
     */
    protected LtConnection newAttachment() {
        return idle.enabled ? new LtConnection(idle.sweeps) : null;
    }

    /**
     * Reads into {@code buf} (cleared first, flipped after). Returns false if there is nothing
     * to handle: no bytes yet, or the peer finished sending and the connection was closed.
     */
    protected final boolean read(SelectionKey key, ByteBuffer buf) throws IOException {
        buf.clear();
        int n = ((SocketChannel) key.channel()).read(buf);
        counters.reads++;
        if (n < 0) {
            // The peer has finished sending, and everything it sent has been answered (we never
            // read while output is pending), so the exchange is complete: close our side too.
            close(key);
            return false;
        }
        if (n == 0) {
            counters.readsEagain++;
            return false;
        }
        counters.bytesIn += n;
        buf.flip();
        return true;
    }

    /** Swaps OP_READ for OP_WRITE while output is pending; not reading meanwhile is the backpressure. */
    protected static void awaitWritable(SelectionKey key) {
        // OP_WRITE only while a write is pending: a socket with room in its send buffer is
        // always writable, so a standing OP_WRITE would wake a level-triggered loop forever.
        key.interestOps(SelectionKey.OP_WRITE);
    }

    /** The pending output is gone: back to reading. */
    protected static void resumeReading(SelectionKey key) {
        key.interestOps(SelectionKey.OP_READ);
    }

    protected final void write(SocketChannel ch, ByteBuffer buf) throws IOException {
        int w = ch.write(buf);
        counters.writes++;
        if (w == 0) counters.writesEagain++;
        counters.bytesOut += w;
    }

    /** Out of descriptors (or another accept failure): stop polling the listener for a while. */
    private void pauseAccepting(IOException e) {
        counters.acceptFailures++;
        // Level-triggered trap: the listener stays readable while accept fails, so retrying at
        // once would spin the CPU. The pending connections wait in the backlog meanwhile.
        listenKey.interestOps(0);
        acceptResumeAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ACCEPT_BACKOFF_MS);
        if (!acceptFailing) {
            acceptFailing = true;
            // No string concatenation here: it may load classes, which needs descriptors we lack.
            log.print("lt: accept failed (");
            log.print(e.getMessage());
            log.println("); pausing accepts, retrying every 100 ms");
        }
    }

    private void resumeAccepting() {
        acceptResumeAt = 0;
        if (listenKey.isValid()) listenKey.interestOps(SelectionKey.OP_ACCEPT);
    }

    /** {@code --idle-timeout}: closes the connections that have had no event for that long (slowloris). */
    private void closeIdleConnections() {
        idle.advance();
        int closed = 0;
        // Cancelled keys stay in keys() until the next select, so closing while iterating is safe.
        for (SelectionKey k : selector.keys()) {
            if (k == listenKey || !k.isValid() || !idle.isIdle(((LtConnection) k.attachment()).lastActive)) continue;
            close(k);
            closed++;
        }
        counters.idleCloses += closed;
        if (closed > 0) idle.log(log, "lt", closed);
    }

    /** Stop accepting, let connections finish their echoes for a short grace, then close. */
    private void drain() throws IOException {
        listenKey.cancel();
        closeQuietly(listener);
        long deadline = System.nanoTime() + DRAIN_GRACE_NANOS;
        while (hasConnections() && deadline - System.nanoTime() > 0) {
            counters.events += selector.select(onReady, 50);
            counters.waits++;
        }
    }

    private boolean hasConnections() {
        for (SelectionKey k : selector.keys()) {
            if (k != listenKey && k.isValid()) return true;
        }
        return false;
    }

    protected final void close(SelectionKey key) {
        key.cancel();
        closeQuietly(key.channel());
        counters.closes++;
    }

    private void closeEverything() {
        for (SelectionKey k : selector.keys()) {
            if (k != listenKey && k.isValid()) close(k);
        }
        closeQuietly(listener);
        closeQuietly(selector);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (Exception ignored) {
            // closing is best effort; there is nothing left to tell the peer
        }
    }

    @Override
    public void stop() {
        running = false;
        selector.wakeup();
    }

    @Override
    public Counters counters() {
        return counters;
    }

    @Override
    public String label() {
        return "lt, " + protocol;
    }

    @Override
    public String waitName() {
        return "selects";
    }
}
