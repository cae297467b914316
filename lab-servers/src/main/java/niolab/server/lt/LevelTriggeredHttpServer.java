package niolab.server.lt;

import static niolab.server.Counter.PARTIAL_WRITES;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import niolab.server.ServerOptions;
import niolab.server.proto.HttpConnection;
import niolab.server.proto.HttpPing;

/**
 * {@code lt --protocol http}: each read is parsed by {@link HttpPing}, which answers every
 * complete request in it into one shared output buffer, so a pipelined batch leaves in one
 * write. A partial write parks the unwritten responses and the unparsed requests in the
 * connection ({@link HttpConnection#park}) and the connection waits for OP_WRITE, reading
 * nothing meanwhile.
 */
public final class LevelTriggeredHttpServer extends LevelTriggeredServer {
    /** Shared by every connection: each read is fully answered (or parked) before the next. */
    private final ByteBuffer readBuffer;
    private final ByteBuffer writeBuffer;

    public LevelTriggeredHttpServer(ServerOptions options) {
        super(options);
        this.readBuffer = ByteBuffer.allocateDirect(options.bufferSize);
        this.writeBuffer = ByteBuffer.allocateDirect(Math.max(options.bufferSize, HttpPing.MAX_RESPONSE_BYTES));
    }

    @Override
    protected LtConnection newAttachment() {
        LtConnection c = new LtConnection(idle.sweeps);
        c.http = new HttpConnection(); // a few ints of parser state; its buffers come only if needed
        return c;
    }

    @Override
    protected void onReadable(SelectionKey key) throws IOException {
        if (read(key, readBuffer)) respond(key, ((LtConnection) key.attachment()).http, readBuffer);
    }

    /** Answers what {@code in} holds; parks what the socket would not take. */
    private void respond(SelectionKey key, HttpConnection conn, ByteBuffer in) throws IOException {
        SocketChannel ch = (SocketChannel) key.channel();
        ByteBuffer out = writeBuffer;
        int flags;
        do {
            out.clear();
            flags = HttpPing.process(in, out, conn);
            out.flip();
            if (out.hasRemaining()) { // a partial request answers nothing: no syscall
                if (mistakes.nagle) writeHeadersThenBody(ch, out); // MISTAKE nagle: two writes per response
                else write(ch, out);
            }
            if (out.hasRemaining()) {
                counters.inc(PARTIAL_WRITES);
                conn.park(out, in, flags);
                awaitWritable(key);
                return;
            }
        } while ((flags & HttpPing.OUT_FULL) != 0);
        if ((flags & HttpPing.CLOSE) != 0) close(key);
    }

    /**
     * MISTAKE nagle: the batch in two writes, up to the last response's body, then the body.
     * With TCP_NODELAY off, Nagle's algorithm holds the small second segment until the first
     * is acknowledged, and the client, with nothing to send back yet, delays that ACK (40 ms on
     * Linux): the classic write-write-read stall.
     */
    private void writeHeadersThenBody(SocketChannel ch, ByteBuffer out) throws IOException {
        int end = out.limit();
        out.limit(HttpPing.lastBodyStart(out, out.position(), end));
        write(ch, out);
        boolean headersWent = !out.hasRemaining();
        out.limit(end);
        if (headersWent && out.hasRemaining()) write(ch, out);
    }

    @Override
    protected void onWritable(SelectionKey key) throws IOException {
        HttpConnection conn = ((LtConnection) key.attachment()).http;
        ByteBuffer pending = conn.pendingOutput();
        write((SocketChannel) key.channel(), pending);
        if (pending.hasRemaining()) return;
        if (conn.closeAfterPending()) {
            close(key);
            return;
        }
        resumeReading(key);
        respond(key, conn, conn.pendingInput()); // requests that arrived with the parked batch
    }
}
