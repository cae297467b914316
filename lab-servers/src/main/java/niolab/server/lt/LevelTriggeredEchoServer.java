package niolab.server.lt;

import static niolab.server.Counter.PARTIAL_WRITES;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import niolab.server.ServerOptions;

/**
 * {@code lt --protocol echo}: each read is written straight back from one shared buffer
 * (zero copies on the fast path). A partial write moves the rest to a per-connection buffer,
 * allocated the first time it is needed, and the connection waits for OP_WRITE.
 */
public final class LevelTriggeredEchoServer extends LevelTriggeredServer {
    /** One buffer for the whole loop: each read is echoed (or stashed) before the next read. */
    private final ByteBuffer readBuffer;

    public LevelTriggeredEchoServer(ServerOptions options) {
        super(options);
        this.readBuffer = ByteBuffer.allocateDirect(options.bufferSize);
    }

    @Override
    protected void onReadable(SelectionKey key) throws IOException {
        ByteBuffer buf = readBuffer;
        if (!read(key, buf)) return;
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
            pending = c.pending = ByteBuffer.allocateDirect(options.bufferSize); // once per connection, on the slow path
        }
        pending.clear();
        pending.put(rest).flip();
        awaitWritable(key);
    }

    @Override
    protected void onWritable(SelectionKey key) throws IOException {
        ByteBuffer pending = ((LtConnection) key.attachment()).pending;
        write((SocketChannel) key.channel(), pending);
        if (!pending.hasRemaining()) resumeReading(key);
    }
}
