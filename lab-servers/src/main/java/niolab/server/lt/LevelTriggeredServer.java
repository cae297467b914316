package niolab.server.lt;

import static niolab.server.base.Counter.ACCEPT_FAILURES;
import static niolab.server.base.Counter.BYTES_IN;
import static niolab.server.base.Counter.BYTES_OUT;
import static niolab.server.base.Counter.EMPTY_ACCEPTS;
import static niolab.server.base.Counter.EVENTS;
import static niolab.server.base.Counter.READS;
import static niolab.server.base.Counter.READS_EAGAIN;
import static niolab.server.base.Counter.RESETS;
import static niolab.server.base.Counter.WAITS;
import static niolab.server.base.Counter.WRITES;
import static niolab.server.base.Counter.WRITES_EAGAIN;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.function.Consumer;
import niolab.server.base.Counters;
import niolab.server.base.EventLoop;
import niolab.server.base.LoopConnection;
import niolab.server.base.NioListener;
import niolab.server.base.ServerConfig;
import niolab.server.base.SharedListener;

/**
 * The {@code lt} architecture: one thread, one {@link Selector} (the JDK drives epoll in its
 * default level-triggered mode) and non-blocking channels. This class is what lt does its own
 * way: wait with {@code select}, accept, read, write, switch interest ops; {@link EventLoop}
 * runs the loop, and a subclass speaks the protocol: {@link LevelTriggeredEchoServer} or
 * {@link LevelTriggeredHttpServer}.
 *
 * <p>A connection is in one of two states. Normally it is registered for OP_READ only. When a
 * write is partial, the subclass keeps the unwritten rest and the connection is registered for
 * OP_WRITE only, until that rest has gone out. So pending output never exceeds one buffer per
 * connection, and a client that does not read simply stops being read from: its unread bytes
 * wait in the kernel (backpressure).
 *
 * <p>The {@code --mistake}s that break lt are marked {@code // MISTAKE name:} where they do.
 */
public abstract class LevelTriggeredServer extends EventLoop implements SharedListener.Poller {
    private static final int ACCEPTS_PER_WAKEUP = 64;
    /** The attachment of a channel the subclass watches besides its connections ({@link #watch}). */
    private static final Object WATCHED = new Object();

    private final Selector selector;
    /** Created once: {@code select(Consumer)} is called per wakeup, and {@code this::onReady} would allocate each time. */
    private final Consumer<SelectionKey> onReady = this::onReady;
    /** A connection's interest while it reads (none of its output is pending). */
    private final int readingOps;
    private ServerSocketChannel listener;
    private SelectionKey listenKey;

    protected LevelTriggeredServer(ServerConfig config) {
        super("lt", config, new Counters("selects", acceptRows(config)));
        // MISTAKE standing-write: OP_WRITE too, for good. A socket with room to send is always
        // writable, so every select returns at once, idle connections or not.
        readingOps = mistakes.standingWrite ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
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
    protected InetSocketAddress listen() throws IOException {
        listener = NioListener.open(config);
        listener.configureBlocking(false);
        listenKey = listener.register(selector, SelectionKey.OP_ACCEPT);
        return (InetSocketAddress) listener.getLocalAddress();
    }

    /** MISTAKE herd: poll the listener {@code first} bound; the last loop to stop polling it closes it. */
    @Override
    public void pollListenerOf(EventLoop first) throws IOException {
        listener = ((LevelTriggeredServer) first).listener;
        listenKey = listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    @Override
    protected void waitAndDispatch(long timeoutMs) throws IOException {
        if (mistakes.keysNotRemoved) {
            selectAndWalkSelectedKeys(timeoutMs);
            return;
        }
        // select(Consumer) hands each ready key to onReady: no selected-key set to iterate and clear.
        // (A zero timeout asks for a poll; select's own 0 would mean forever.)
        counters.add(EVENTS, timeoutMs == 0 ? selector.selectNow(onReady)
                : selector.select(onReady, timeoutMs == NO_TIMEOUT ? 0 : timeoutMs));
        counters.inc(WAITS);
    }

    /**
     * MISTAKE keys-not-removed: the loop as written before {@code select(Consumer)} (JDK 11),
     * with its classic slip. The selector adds each ready key to {@code selectedKeys()} and
     * never takes one out, so a key not removed stays there with its ready set of back then,
     * and every later wakeup handles it again: reads that find nothing, accepts of nobody.
     */
    private void selectAndWalkSelectedKeys(long timeoutMs) throws IOException {
        if (timeoutMs == 0) {
            selector.selectNow();
        } else {
            selector.select(timeoutMs == NO_TIMEOUT ? 0 : timeoutMs);
        }
        counters.inc(WAITS);
        for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
            SelectionKey key = it.next();
            // MISTAKE keys-not-removed: it.remove(); belongs here, and is missing
            counters.inc(EVENTS);
            if (key.isValid()) onReady(key);
        }
    }

    private void onReady(SelectionKey key) {
        if (key == listenKey) {
            accept();
            return;
        }
        if (key.attachment() == WATCHED) {
            onWatchedReady(key);
            return;
        }
        if (idle.enabled) ((LtConnection) key.attachment()).lastActive = idle.sweeps;
        try {
            if (key.isWritable() && writePending(key)) {
                onWritable(key);
            } else if (key.isReadable()) {
                onReadable(key);
            }
        } catch (IOException e) {
            counters.inc(RESETS); // reset by peer, broken pipe: this connection only
            close(key);
        }
    }

    /**
     * The writable key has output pending. Always so in the correct loop, which asks for OP_WRITE
     * only then; MISTAKE standing-write leaves OP_WRITE on, so there the connection must be asked.
     */
    private boolean writePending(SelectionKey key) {
        return !mistakes.standingWrite || LtConnection.hasPendingOutput(key.attachment());
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
                if (i == 0) counters.inc(EMPTY_ACCEPTS); // woken for a connection another loop took
                acceptBackoff.drained();
                return;
            }
            opened();
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, !mistakes.nagle); // MISTAKE nagle: Nagle's algorithm left on
                if (config.sndbuf() > 0) ch.setOption(StandardSocketOptions.SO_SNDBUF, config.sndbuf()); // --sndbuf: partial writes on loopback
                ch.register(selector, readingOps, newAttachment());
            } catch (IOException e) {
                counters.inc(RESETS);
                closeQuietly(ch);
                closed();
            }
        }
    }

    /** Out of descriptors (or another accept failure): stop polling the listener until the retry. */
    private void pauseAccepting(IOException e) {
        counters.inc(ACCEPT_FAILURES);
        // Level-triggered trap: the listener stays readable while accept fails, so retrying at
        // once would spin the CPU. The pending connections wait in the backlog meanwhile.
        listenKey.interestOps(0);
        acceptBackoff.pause("accept", e.getMessage());
    }

    @Override
    protected void resumeAccepting() {
        if (listenKey.isValid()) listenKey.interestOps(SelectionKey.OP_ACCEPT);
    }

    /**
     * Registers a channel the subclass owns besides its connections (a backend's socket) with
     * this loop's Selector: its readiness goes to {@link #onWatchedReady}; it is no connection
     * (not counted, never idle-closed), and the subclass closes it.
     */
    protected final SelectionKey watch(SelectableChannel channel, int ops) throws ClosedChannelException {
        return channel.register(selector, ops, WATCHED);
    }

    /** A channel from {@link #watch} is ready. */
    protected void onWatchedReady(SelectionKey key) {
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
        counters.inc(READS);
        if (n < 0) {
            // The peer has finished sending, and everything it sent has been answered (we never
            // read while output is pending), so the exchange is complete: close our side too.
            close(key);
            return false;
        }
        if (n == 0) {
            counters.inc(READS_EAGAIN);
            return false;
        }
        counters.add(BYTES_IN, n);
        if (readWork != null) readWork.request(); // --work-ns: a calibrated cost per request
        if (mistakes.blockingOnLoop) blockTheLoop(); // MISTAKE blocking-on-loop: a synchronous call per request
        buf.flip();
        return true;
    }

    protected final void write(SocketChannel ch, ByteBuffer buf) throws IOException {
        int w = ch.write(buf);
        counters.inc(WRITES);
        if (w == 0) counters.inc(WRITES_EAGAIN);
        counters.add(BYTES_OUT, w);
    }

    /** Swaps OP_READ for OP_WRITE while output is pending; not reading meanwhile is the backpressure. */
    protected static void awaitWritable(SelectionKey key) {
        // BEGIN SOLUTION lt-interest-ops
        // STUB: // TODO lab 2: stop reading this connection and wait until it can take the rest: which interest
        // STUB: // ops, and why not OP_READ | OP_WRITE? (See the class comment and LevelTriggeredEchoServer.stash.)
        // STUB: throw new UnsupportedOperationException("lab 2: awaitWritable: switch the key's interest ops");
        // OP_WRITE only while a write is pending: a socket with room in its send buffer is
        // always writable, so a standing OP_WRITE would wake a level-triggered loop forever.
        key.interestOps(SelectionKey.OP_WRITE);
        // END SOLUTION
    }

    /** The pending output is gone: back to reading. */
    protected final void resumeReading(SelectionKey key) {
        // BEGIN SOLUTION lt-interest-ops
        // STUB: // TODO lab 2: the pending output has gone: back to the ops a connection starts with (accept()
        // STUB: // registers it with readingOps: OP_READ, or OP_READ | OP_WRITE under MISTAKE standing-write, which
        // STUB: // mistakes.standingWrite turns on: the lt-idle-loop checkpoint expects that mistake to show).
        // STUB: throw new UnsupportedOperationException("lab 2: resumeReading: switch the key's interest ops back");
        key.interestOps(readingOps); // OP_READ (MISTAKE standing-write: OP_READ | OP_WRITE)
        // END SOLUTION
    }

    /**
     * The closing answer has gone out whole: shut the sending side (the client reads the
     * answer, then end of stream) and linger, reading and dropping what still comes, so that
     * closing on unread bytes cannot reset the connection and destroy the answer (RFC 9112 9.6).
     */
    protected final void closeAfterAnswer(SelectionKey key) {
        // MISTAKE no-linger: close at once; bytes the client sent after the request that closes
        // the connection (the rest of a large head) are still unread, so the kernel sends a
        // reset, and the client's kernel drops the 431 before the client reads it.
        if (mistakes.noLinger) {
            close(key);
            return;
        }
        LtConnection c = (LtConnection) key.attachment();
        try {
            ((SocketChannel) key.channel()).shutdownOutput();
        } catch (IOException e) {
            counters.inc(RESETS);
            close(key);
            return;
        }
        c.key = key;
        linger(c);
        key.interestOps(SelectionKey.OP_READ);
    }

    /** Reads what lingering {@code c} sends into {@code buf} and drops it; closes it at end of stream or at {@code --linger-bytes}. */
    protected final void discard(SelectionKey key, LtConnection c, ByteBuffer buf) throws IOException {
        if (read(key, buf) && discarded(c, buf.remaining())) close(key);
    }

    @Override
    protected void closeLingering(LoopConnection c) {
        close(((LtConnection) c).key);
    }

    @Override
    protected int closeIdleConnections() {
        int closed = 0;
        // Cancelled keys stay in keys() until the next select, so closing while iterating is safe.
        for (SelectionKey k : selector.keys()) {
            if (k == listenKey || !k.isValid() || k.attachment() == WATCHED || !idle.isIdle(((LtConnection) k.attachment()).lastActive)) continue;
            close(k);
            closed++;
        }
        return closed;
    }

    protected final void close(SelectionKey key) {
        if (mistakes.unboundedOutput) LtConnection.freeUnsent(key.attachment());
        if (key.attachment() instanceof LtConnection) lingerEnded((LtConnection) key.attachment());
        key.cancel();
        closeQuietly(key.channel());
        closed();
    }

    @Override
    protected void closeListener() {
        if (listenKey != null) listenKey.cancel();
        if (listener == null) return;
        // MISTAKE herd: a listener polled by several loops is closed by the last of them to stop.
        if (SharedListener.lastToLeave(this)) closeQuietly(listener);
        listener = null;
    }

    @Override
    protected void closeEverything() {
        for (SelectionKey k : selector.keys()) {
            if (k != listenKey && k.isValid() && k.attachment() != WATCHED) close(k);
        }
        closeListener();
        closeQuietly(selector);
    }

    @Override
    protected void wakeUp() {
        selector.wakeup();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (Exception ignored) {
            // closing is best effort; there is nothing left to tell the peer
        }
    }
}
