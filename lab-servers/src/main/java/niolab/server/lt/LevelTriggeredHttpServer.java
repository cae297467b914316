package niolab.server.lt;

import static niolab.server.base.Counter.PARTIAL_WRITES;
import static niolab.server.base.Counter.RESETS;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import niolab.server.backend.Backend;
import niolab.server.backend.Backends;
import niolab.server.backend.NioRedisTransport;
import niolab.server.backend.RedisPipeline;
import niolab.server.backend.Waiters;
import niolab.server.base.ServerConfig;
import niolab.server.proto.Healthz;
import niolab.server.proto.HttpConnection;
import niolab.server.proto.HttpPing;

/**
 * {@code lt --protocol http}: each read is parsed by {@link HttpPing}, which answers every
 * complete request in it into one shared output buffer, so a pipelined batch leaves in one
 * write. A partial write parks the unwritten responses and the unparsed requests in the
 * connection ({@link HttpConnection#park}) and the connection waits for OP_WRITE, reading
 * nothing meanwhile.
 *
 * <p>With {@code --backend}, a {@code /healthz} stops the batch: what was answered before it is
 * written, then the {@link Backend} answers it at once or parks it. A parked connection keeps
 * the requests behind it and is registered for nothing until the answer comes back through
 * {@link #resume}: requests are answered in order, and a client that pipelines behind a slow
 * backend holds one buffer here while the rest waits in the kernel. In the loop posture the
 * Redis socket is registered with this Selector too ({@link #watch}).
 */
public final class LevelTriggeredHttpServer extends LevelTriggeredServer implements Waiters<SelectionKey> {
    /** Shared by every connection: each read is fully answered (or parked) before the next. */
    private final ByteBuffer readBuffer;
    private final ByteBuffer writeBuffer;
    /** Null without {@code --backend}: then /healthz is an unknown path. */
    private final Backend<SelectionKey> backend;

    public LevelTriggeredHttpServer(ServerConfig config) {
        super(config);
        this.readBuffer = ByteBuffer.allocateDirect(config.bufferSize());
        this.writeBuffer = ByteBuffer.allocateDirect(Math.max(config.bufferSize(),
                Math.max(HttpPing.MAX_RESPONSE_BYTES, Healthz.MAX_RESPONSE_BYTES)));
        // The skeleton starts it, runs it around each select and closes it (a LoopDuty).
        this.backend = config.backend() == null ? null : addDuty(Backends.open(config.backend(), config.arch().label, log,
                counters, this, new NioRedisTransport(this::watch), this::wakeUp));
    }

    @Override
    protected LtConnection newAttachment() {
        LtConnection c = new LtConnection(idle.sweeps);
        c.http = new HttpConnection(requestWork); // a few ints of parser state; its buffers come only if needed
        return c;
    }

    @Override
    protected void onWatchedReady(SelectionKey key) {
        // Only the loop posture watches a channel: its Redis connection.
        ((RedisPipeline<?>) backend).onReady(key.isReadable(), key.isWritable() || key.isConnectable());
    }

    @Override
    protected void onReadable(SelectionKey key) throws IOException {
        LtConnection c = (LtConnection) key.attachment();
        if (c.lingering()) {
            discard(key, c, readBuffer);
            return;
        }
        if (!read(key, readBuffer)) return;
        writeBuffer.clear();
        respond(key, c.http, readBuffer);
    }

    /** Answers what {@code in} holds after what the output buffer holds already; parks what must wait. */
    private void respond(SelectionKey key, HttpConnection conn, ByteBuffer in) throws IOException {
        ByteBuffer out = writeBuffer;
        while (true) {
            int flags = HttpPing.process(in, out, conn, backend != null);
            if ((flags & HttpPing.BACKEND) != 0) {
                if (!flush(key, conn, in, 0)) return; // the answers before it go first: this one may wait
                flags = backend.call(key, conn, out);
                if (flags == Backend.PARKED) {
                    conn.keepInput(in);
                    key.interestOps(0); // read nothing more until the answer is in
                    return;
                }
                if ((flags & HttpPing.CLOSE) == 0) continue; // answered at once: on with the batch
            }
            if (!flush(key, conn, in, flags)) return;
            if ((flags & HttpPing.CLOSE) != 0) {
                closeAfterAnswer(key);
                return;
            }
            if ((flags & HttpPing.OUT_FULL) == 0) return;
        }
    }

    /** Writes the output buffer (no syscall if empty) and clears it; false if a partial write parked the rest. */
    private boolean flush(SelectionKey key, HttpConnection conn, ByteBuffer in, int flags) throws IOException {
        ByteBuffer out = writeBuffer;
        out.flip();
        if (out.hasRemaining()) { // a partial request answers nothing: no syscall
            SocketChannel ch = (SocketChannel) key.channel();
            if (mistakes.nagle) writeHeadersThenBody(ch, out); // MISTAKE nagle: two writes per response
            else write(ch, out);
        }
        if (out.hasRemaining()) {
            counters.inc(PARTIAL_WRITES);
            conn.park(out, in, flags);
            awaitWritable(key);
            return false;
        }
        out.clear();
        return true;
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
            closeAfterAnswer(key);
            return;
        }
        resumeReading(key);
        writeBuffer.clear();
        respond(key, conn, conn.pendingInput()); // requests that arrived with the parked batch
    }

    /** The backend's answer to the /healthz this connection parked: write it, go on with the requests kept behind it. */
    @Override
    public void resume(SelectionKey key, long generation, Healthz.Answer answer) {
        if (!key.isValid()) return; // closed while it waited (idle, or the server is stopping)
        HttpConnection conn = ((LtConnection) key.attachment()).http;
        writeBuffer.clear();
        int flags = Healthz.write(writeBuffer, conn, answer);
        resumeReading(key);
        try {
            if ((flags & HttpPing.CLOSE) == 0) {
                respond(key, conn, conn.keptInput());
            } else if (flush(key, conn, conn.keptInput(), flags)) {
                closeAfterAnswer(key);
            }
        } catch (IOException e) {
            counters.inc(RESETS);
            close(key);
        }
    }
}
