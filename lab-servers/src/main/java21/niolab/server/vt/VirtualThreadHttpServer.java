package niolab.server.vt;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import niolab.server.ServerOptions;
import niolab.server.backend.ThreadBackend;
import niolab.server.proto.Healthz;
import niolab.server.proto.HttpConnection;
import niolab.server.proto.HttpPing;

/**
 * {@code vt --protocol http}: each read is answered by {@link HttpPing} into one output buffer,
 * written in one write (per buffer-full), so a pipelined batch leaves together. A write that
 * cannot finish simply parks, so nothing is ever parked in {@link HttpConnection} as the loops
 * must: the thread's own stack is the state they keep by hand.
 *
 * <p>With {@code --backend}, a {@code /healthz} stops the batch: the answers before it are
 * written, then the connection's own thread asks Redis ({@link ThreadBackend}), parked until the
 * reply comes, and goes on with the batch. What the loops do with a parked request, a hand-off
 * and a wake-up is here one blocking call.
 */
final class VirtualThreadHttpServer extends VirtualThreadServer {
    private final int outputBytes;
    /** Null without {@code --backend}: then /healthz is an unknown path. */
    private final ThreadBackend backend;

    VirtualThreadHttpServer(ServerOptions options) {
        super(options);
        // The HTTP classes are initialized here, not by the first connections' virtual threads,
        // which would wait for each other pinned: HttpPing and Healthz by this read, the parser by this object.
        outputBytes = Math.max(options.bufferSize, Math.max(HttpPing.MAX_RESPONSE_BYTES, Healthz.MAX_RESPONSE_BYTES));
        new HttpConnection();
        backend = options.backend == null ? null : new ThreadBackend(options.backend, options.arch(), log);
        if (backend != null) declare(ThreadBackend.rows());
    }

    @Override
    public InetSocketAddress bind() throws IOException {
        InetSocketAddress bound = super.bind();
        if (backend != null) backend.start();
        return bound;
    }

    @Override
    protected void serve(VtConnection c) throws IOException {
        // Heap buffers, for the reasons VirtualThreadEchoServer gives.
        ByteBuffer in = ByteBuffer.allocate(options.bufferSize);
        ByteBuffer out = ByteBuffer.allocate(outputBytes);
        HttpConnection http = new HttpConnection();
        ThreadBackend.Caller redis = backend == null ? null : backend.newCaller(c.counters);
        while (read(c, in) >= 0) {
            if (answer(c, in, out, http, redis)) return;
        }
    }

    /** Answers every complete request {@code in} holds, in order; true if the connection must close. */
    private boolean answer(VtConnection c, ByteBuffer in, ByteBuffer out, HttpConnection http, ThreadBackend.Caller redis)
            throws IOException {
        while (true) {
            int flags = HttpPing.process(in, out, http, redis != null);
            if ((flags & HttpPing.BACKEND) != 0) {
                flush(c, out); // the answers before it leave first: this one waits for Redis
                flags = redis.call(http, out); // parked in Redis's replies, the carrier free meanwhile
                if ((flags & HttpPing.CLOSE) == 0) continue; // on with the batch, after this answer
            }
            flush(c, out);
            if ((flags & HttpPing.CLOSE) != 0) return true;
            if ((flags & HttpPing.OUT_FULL) == 0) return false;
        }
    }

    /** Writes what {@code out} holds (a partial request answers nothing: no syscall) and clears it for the next answers. */
    private void flush(VtConnection c, ByteBuffer out) throws IOException {
        out.flip();
        if (out.hasRemaining()) writeFully(c, out);
        out.clear();
    }

    @Override
    protected void closed() {
        if (backend != null) backend.close();
    }
}
