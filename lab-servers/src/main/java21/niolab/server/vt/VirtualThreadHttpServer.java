package niolab.server.vt;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import niolab.server.backend.ThreadBackend;
import niolab.server.base.BlockingLinger;
import niolab.server.base.BusyWork;
import niolab.server.base.Counter;
import niolab.server.base.ServerConfig;
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
    /** The output buffer's first size and its largest: it grows as the input buffer does, when a batch's answers filled it. */
    private final int firstOutputBytes, outputBytes;
    /** Null without {@code --backend}: then /healthz is an unknown path. */
    private final ThreadBackend backend;

    VirtualThreadHttpServer(ServerConfig config) {
        super(config);
        // The HTTP classes are initialized here, not by the first connections' virtual threads,
        // which would wait for each other pinned: HttpPing and Healthz by this read, the parser by this object.
        int largestResponse = Math.max(HttpPing.MAX_RESPONSE_BYTES, Healthz.MAX_RESPONSE_BYTES);
        firstOutputBytes = Math.max(Math.min(FIRST_BUFFER_BYTES, config.bufferSize()), largestResponse);
        outputBytes = Math.max(config.bufferSize(), largestResponse);
        new HttpConnection();
        backend = config.backend() == null ? null : new ThreadBackend(config.backend(), config.arch().label, log);
        if (backend != null) declare(ThreadBackend.rows());
        declare(Counter.LINGER_ROWS);
    }

    @Override
    public InetSocketAddress bind() throws IOException {
        InetSocketAddress bound = super.bind();
        if (backend != null) backend.start();
        return bound;
    }

    @Override
    protected void serve(VtConnection c) throws IOException {
        HttpConnection http = new HttpConnection(BusyWork.perRequest(config, c.counters));
        ThreadBackend.Caller redis = backend == null ? null : backend.newCaller(c.counters);
        while (read(c) >= 0) {
            if (answer(c, http, redis)) {
                // Through the channel's socket adaptor, whose reads take a timeout: only on this closing path.
                BlockingLinger.linger(c.channel.socket(), c.in.array(), config.lingerTime(), config.lingerBytes(), c.counters);
                return;
            }
        }
    }

    /** Answers every complete request {@code c.in} holds, in order; true if the connection must close. */
    private boolean answer(VtConnection c, HttpConnection http, ThreadBackend.Caller redis) throws IOException {
        if (c.out == null) c.out = ByteBuffer.allocate(firstOutputBytes); // at the first request: a silent connection holds none
        while (true) {
            int flags = HttpPing.process(c.in, c.out, http, redis != null);
            if ((flags & HttpPing.BACKEND) != 0) {
                flush(c); // the answers before it leave first: this one waits for Redis
                flags = redis.call(http, c.out); // parked in Redis's replies, the carrier free meanwhile
                if ((flags & HttpPing.CLOSE) == 0) continue; // on with the batch, after this answer
            }
            flush(c);
            if ((flags & HttpPing.CLOSE) != 0) return true;
            if ((flags & HttpPing.OUT_FULL) == 0) return false;
            if (c.out.capacity() < outputBytes) c.out = ByteBuffer.allocate(Math.min(2 * c.out.capacity(), outputBytes));
        }
    }

    /** Writes what {@code c.out} holds (a partial request answers nothing: no syscall) and clears it for the next answers. */
    private void flush(VtConnection c) throws IOException {
        ByteBuffer out = c.out.flip();
        if (out.hasRemaining()) writeFully(c, out);
        out.clear();
    }

    @Override
    protected void closed() {
        if (backend != null) backend.close();
    }
}
