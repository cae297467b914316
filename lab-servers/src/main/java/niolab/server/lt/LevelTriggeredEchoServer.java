package niolab.server.lt;

import static niolab.server.base.Counter.PARTIAL_WRITES;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import niolab.epoll.Bindings;
import niolab.server.base.ServerConfig;
import niolab.server.base.UnboundedOutput;

/**
 * {@code lt --protocol echo}: each read is written straight back from one shared buffer
 * (zero copies on the fast path). A partial write moves the rest to a per-connection buffer,
 * allocated the first time it is needed, and the connection waits for OP_WRITE.
 */
public final class LevelTriggeredEchoServer extends LevelTriggeredServer {
    /** One buffer for the whole loop: each read is echoed (or stashed) before the next read. */
    private final ByteBuffer readBuffer;

    public LevelTriggeredEchoServer(ServerConfig config) {
        super(config);
        this.readBuffer = ByteBuffer.allocateDirect(config.bufferSize());
    }

    @Override
    protected void onReadable(SelectionKey key) throws IOException {
        ByteBuffer buf = readBuffer;
        if (!read(key, buf)) return;
        if (mistakes.unboundedOutput) {
            echoOrQueue(key, buf); // MISTAKE unbounded-output: reads on while output is pending
            return;
        }
        write((SocketChannel) key.channel(), buf);
        if (buf.hasRemaining()) {
            counters.inc(PARTIAL_WRITES);
            stash(key, buf);
        }
    }

    /** Keeps the unwritten rest and swaps OP_READ for OP_WRITE until it is gone. */
    private void stash(SelectionKey key, ByteBuffer rest) {
        LtConnection c = (LtConnection) key.attachment();
        if (c == null) key.attach(c = new LtConnection(idle.sweeps));
        ByteBuffer pending = c.pending;
        if (pending == null) {
            pending = c.pending = ByteBuffer.allocateDirect(config.bufferSize()); // once per connection, on the slow path
        }
        pending.clear();
        pending.put(rest).flip();
        awaitWritable(key);
    }

    /**
     * MISTAKE unbounded-output: echoes {@code buf}, or queues it behind output still pending,
     * and keeps OP_READ on meanwhile. A client that does not read is read from all the same, so
     * the queue grows with what it sends, until the switch's safety cap closes the connection.
     */
    private void echoOrQueue(SelectionKey key, ByteBuffer buf) throws IOException {
        LtConnection c = (LtConnection) key.attachment();
        if (c == null) key.attach(c = new LtConnection(idle.sweeps));
        if (c.unsent == null) c.unsent = new UnboundedOutput(Bindings.jna()); // MISTAKE unbounded-output: native chunks
        if (c.unsent.isEmpty()) {
            write((SocketChannel) key.channel(), buf);
            if (!buf.hasRemaining()) return;
            counters.inc(PARTIAL_WRITES);
        }
        if (!c.unsent.add(buf)) {
            logOutputCap();
            close(key);
            return;
        }
        key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
    }

    /** MISTAKE unbounded-output: writes the queue out, oldest first; back to reading alone once it is empty. */
    private void flushUnsent(SelectionKey key) throws IOException {
        UnboundedOutput q = ((LtConnection) key.attachment()).unsent;
        while (!q.isEmpty()) {
            ByteBuffer head = q.head();
            write((SocketChannel) key.channel(), head);
            q.sent(head.position());
            if (head.hasRemaining()) return;
        }
        resumeReading(key);
    }

    @Override
    protected void onWritable(SelectionKey key) throws IOException {
        if (mistakes.unboundedOutput) {
            flushUnsent(key);
            return;
        }
        ByteBuffer pending = ((LtConnection) key.attachment()).pending;
        write((SocketChannel) key.channel(), pending);
        if (!pending.hasRemaining()) resumeReading(key);
    }
}
