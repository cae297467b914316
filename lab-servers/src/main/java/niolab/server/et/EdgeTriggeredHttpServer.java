package niolab.server.et;

import static niolab.server.base.Counter.PARTIAL_WRITES;

import static niolab.epoll.Linux.EPOLLERR;
import static niolab.epoll.Linux.EPOLLHUP;
import static niolab.epoll.Linux.EPOLLIN;
import static niolab.epoll.Linux.EPOLLOUT;
import static niolab.epoll.Linux.EPOLLRDHUP;

import java.nio.ByteBuffer;
import niolab.epoll.NativeBuffer;
import niolab.epoll.Syscalls;
import niolab.server.backend.Backend;
import niolab.server.backend.Backends;
import niolab.server.backend.EpollRedisTransport;
import niolab.server.backend.RedisPipeline;
import niolab.server.backend.Waiters;
import niolab.server.base.ServerConfig;
import niolab.server.proto.Healthz;
import niolab.server.proto.HttpConnection;
import niolab.server.proto.HttpPing;

/**
 * {@code et --protocol http}: each read is parsed by {@link HttpPing}, which answers every
 * complete request in it into one shared native output buffer, so a pipelined batch leaves in
 * one send. Reading goes on until the socket is drained (the same short-read rule as the echo
 * loop), one batch per read.
 *
 * <p>A partial send parks the unsent responses and the unparsed requests in the connection
 * ({@link HttpConnection#park}) and reading stops: that is the backpressure. The EPOLLOUT edge
 * (registered once, see {@link EdgeTriggeredServer}) resumes it: the parked output goes first,
 * then the parked requests, then the socket, which may still hold bytes no edge will announce
 * again ({@link EtConnection#mayHaveInput}).
 *
 * <p>With {@code --backend}, a {@code /healthz} stops the batch: what was answered before it is
 * sent, then the {@link Backend} answers it at once or parks it. A parked connection keeps the
 * requests behind it and is not read (its edges are remembered in {@code mayHaveInput}) until
 * the answer comes back through {@link #resume}: requests are answered in order. In the loop
 * posture the Redis socket is an fd in this epoll set too ({@link #watch}).
 */
public final class EdgeTriggeredHttpServer extends EdgeTriggeredServer implements Waiters<EtConnection> {
    /** The read buffer seen as a ByteBuffer for the parser: the same native memory, no copy. */
    private final ByteBuffer in;
    /** One output buffer for the whole loop: each batch is sent (or parked) before the next read. */
    private final NativeBuffer writeMemory;
    private final long writeBuffer;
    private final ByteBuffer out;
    /** Null without {@code --backend}: then /healthz is an unknown path. */
    private final Backend<EtConnection> backend;

    public EdgeTriggeredHttpServer(ServerConfig config, Syscalls sys) {
        super(config, sys);
        this.in = readMemory.view();
        int outSize = Math.max(bufferSize, Math.max(HttpPing.MAX_RESPONSE_BYTES, Healthz.MAX_RESPONSE_BYTES));
        this.writeMemory = NativeBuffer.allocate(sys, outSize);
        this.writeBuffer = writeMemory.address();
        this.out = writeMemory.view();
        // The skeleton starts it, runs it around each epoll_wait and closes it (a LoopDuty).
        this.backend = config.backend() == null ? null : addDuty(Backends.open(config.backend(), config.arch().label, log,
                counters, this, new EpollRedisTransport(sys, this::watch), this::wakeUp));
    }

    @Override
    protected void onWatchedEvent(int fd, int ready) {
        // Only the loop posture watches an fd: its Redis connection.
        ((RedisPipeline<?>) backend).onReady((ready & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP)) != 0,
                (ready & (EPOLLOUT | EPOLLERR | EPOLLHUP)) != 0);
    }

    @Override
    protected void onConnectionEvent(EtConnection c, int ready) {
        if ((ready & EPOLLRDHUP) != 0) c.peerShutdown = true;
        if (c.lingering()) {
            discard(c);
            return;
        }
        HttpConnection h = c.http;
        if (h == null) c.http = h = new HttpConnection(requestWork); // once per fd slot; reset on reuse
        ByteBuffer parked = h.pendingOutput();
        if (parked != null && parked.hasRemaining()) {
            // Not writable yet: wait for the EPOLLOUT edge (errors surface through send).
            if ((ready & (EPOLLOUT | EPOLLERR | EPOLLHUP)) == 0 || !flush(c, parked)) return;
            if (h.closeAfterPending()) {
                closeAfterAnswer(c);
                return;
            }
            out.clear();
            if (!respond(c, h, h.pendingInput())) return; // the requests that came with the parked batch
        }
        if (h.awaitsBackend()) {
            c.mayHaveInput = true; // not now: its /healthz waits, and the edge will not come again
            return;
        }
        if (c.mayHaveInput || (ready & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP)) != 0) readAndRespond(c, h);
    }

    /** Reads and answers until the socket is drained, output backs up, or the connection ends. */
    private void readAndRespond(EtConnection c, HttpConnection h) {
        c.mayHaveInput = false;
        ByteBuffer in = this.in;
        long n;
        while ((n = read(c)) > 0) {
            in.limit((int) n).position(0);
            out.clear();
            if (!respond(c, h, in)) return; // parked or closed
            if (mistakes.readOnce) return; // MISTAKE read-once: what is left in the socket raises no new edge
            // The echo loop's short-read rule: bytes arriving later raise a new edge; only
            // after a half-close read on to EOF, whose edge was reported already.
            if (n < bufferSize && !c.peerShutdown) return;
        }
    }

    /**
     * Answers what {@code in} holds after what the output buffer holds already, one send per
     * full output buffer (one per read, unless a read brings more responses than the buffer
     * holds). False if the connection was closed, or output or a /healthz was parked and
     * reading must stop.
     */
    private boolean respond(EtConnection c, HttpConnection h, ByteBuffer in) {
        while (true) {
            int flags = HttpPing.process(in, out, h, backend != null);
            if ((flags & HttpPing.BACKEND) != 0) {
                if (!sendOut(c, h, in, 0)) return false; // the answers before it go first: this one may wait
                flags = backend.call(c, h, out);
                if (flags == Backend.PARKED) {
                    h.keepInput(in);
                    c.mayHaveInput = true; // we stop reading before EAGAIN: no edge will remind us
                    return false;
                }
                if ((flags & HttpPing.CLOSE) == 0) continue; // answered at once: on with the batch
            }
            if (!sendOut(c, h, in, flags)) return false;
            if ((flags & HttpPing.CLOSE) != 0) {
                closeAfterAnswer(c);
                return false;
            }
            if ((flags & HttpPing.OUT_FULL) == 0) return true;
        }
    }

    /** Sends the output buffer (no syscall if empty) and clears it; false if the connection failed or a partial send parked the rest. */
    private boolean sendOut(EtConnection c, HttpConnection h, ByteBuffer in, int flags) {
        int length = out.position();
        if (length > 0) { // a partial request answers nothing: no syscall
            // MISTAKE nagle: two sends per batch, headers then body
            long w = mistakes.nagle ? sendHeadersThenBody(c.fd, length) : send(c.fd, writeBuffer, length);
            if (w < 0) {
                fail(c);
                return false;
            }
            if (w < length) {
                counters.inc(PARTIAL_WRITES);
                out.flip().position((int) w);
                h.park(out, in, flags);
                c.mayHaveInput = true; // we stop reading before EAGAIN: no edge will remind us
                return false;
            }
        }
        out.clear();
        return true;
    }

    /** The backend's answer to the /healthz this connection parked: send it, go on with the requests kept behind it, then the socket. */
    @Override
    public void resume(EtConnection c, long generation, Healthz.Answer answer) {
        HttpConnection h = c.http;
        if (c.fd < 0 || h.generation() != generation) return; // closed while it waited; the slot may serve another
        out.clear();
        int flags = Healthz.write(out, h, answer);
        if ((flags & HttpPing.CLOSE) != 0) {
            if (sendOut(c, h, h.keptInput(), flags)) closeAfterAnswer(c);
            return;
        }
        if (respond(c, h, h.keptInput()) && c.mayHaveInput) readAndRespond(c, h);
    }

    @Override
    protected void closeEverything() {
        super.closeEverything();
        writeMemory.close();
    }

    /**
     * MISTAKE nagle: the batch in two sends, up to the last response's body, then the body.
     * With TCP_NODELAY off, Nagle's algorithm holds the small second segment until the first
     * is acknowledged, and the client, with nothing to send back yet, delays that ACK (40 ms on
     * Linux): the classic write-write-read stall. Returns what send returns for the whole.
     */
    private long sendHeadersThenBody(int fd, int length) {
        int split = HttpPing.lastBodyStart(out, 0, length);
        long w = send(fd, writeBuffer, split);
        if (w < split || split == length) return w;
        long body = send(fd, writeBuffer + split, length - split);
        return body < 0 ? body : w + body;
    }

    /** One send of the parked output; true when all of it has gone (a short send means: wait for EPOLLOUT). */
    private boolean flush(EtConnection c, ByteBuffer parked) {
        long address = sys.address(parked); // the parked buffer is a direct one of HttpConnection's
        long w = send(c.fd, address + parked.position(), parked.remaining());
        if (w < 0) {
            fail(c);
            return false;
        }
        parked.position(parked.position() + (int) w);
        return !parked.hasRemaining();
    }
}
