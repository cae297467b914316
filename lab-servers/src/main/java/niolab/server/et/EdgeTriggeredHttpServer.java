package niolab.server.et;

import static niolab.server.Counter.PARTIAL_WRITES;

import static niolab.epoll.Linux.EPOLLERR;
import static niolab.epoll.Linux.EPOLLHUP;
import static niolab.epoll.Linux.EPOLLIN;
import static niolab.epoll.Linux.EPOLLOUT;
import static niolab.epoll.Linux.EPOLLRDHUP;

import java.nio.ByteBuffer;
import niolab.epoll.NativeBuffer;
import niolab.epoll.Syscalls;
import niolab.server.ServerOptions;
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
 */
public final class EdgeTriggeredHttpServer extends EdgeTriggeredServer {
    /** The read buffer seen as a ByteBuffer for the parser: the same native memory, no copy. */
    private final ByteBuffer in;
    /** One output buffer for the whole loop: each batch is sent (or parked) before the next read. */
    private final NativeBuffer writeMemory;
    private final long writeBuffer;
    private final ByteBuffer out;

    public EdgeTriggeredHttpServer(ServerOptions options, Syscalls sys) {
        super(options, sys);
        this.in = readMemory.view();
        int outSize = Math.max(bufferSize, HttpPing.MAX_RESPONSE_BYTES);
        this.writeMemory = NativeBuffer.allocate(sys, outSize);
        this.writeBuffer = writeMemory.address();
        this.out = writeMemory.view();
    }

    @Override
    protected void onConnectionEvent(EtConnection c, int ready) {
        if ((ready & EPOLLRDHUP) != 0) c.peerShutdown = true;
        HttpConnection h = c.http;
        if (h == null) c.http = h = new HttpConnection(); // once per fd slot; reset on reuse
        ByteBuffer parked = h.pendingOutput();
        if (parked != null && parked.hasRemaining()) {
            // Not writable yet: wait for the EPOLLOUT edge (errors surface through send).
            if ((ready & (EPOLLOUT | EPOLLERR | EPOLLHUP)) == 0 || !flush(c, parked)) return;
            if (h.closeAfterPending()) {
                close(c);
                return;
            }
            if (!respond(c, h, h.pendingInput())) return; // the requests that came with the parked batch
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
            if (!respond(c, h, in)) return; // parked or closed
            if (mistakes.readOnce) return; // MISTAKE read-once: what is left in the socket raises no new edge
            // The echo loop's short-read rule: bytes arriving later raise a new edge; only
            // after a half-close read on to EOF, whose edge was reported already.
            if (n < bufferSize && !c.peerShutdown) return;
        }
    }

    /**
     * Answers what {@code in} holds, one send per full output buffer (one per read, unless a
     * read brings more responses than the buffer holds). False if the connection was closed,
     * or the output was parked and reading must stop.
     */
    private boolean respond(EtConnection c, HttpConnection h, ByteBuffer in) {
        ByteBuffer out = this.out;
        int flags;
        do {
            out.clear();
            flags = HttpPing.process(in, out, h);
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
        } while ((flags & HttpPing.OUT_FULL) != 0);
        if ((flags & HttpPing.CLOSE) != 0) {
            close(c);
            return false;
        }
        return true;
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
