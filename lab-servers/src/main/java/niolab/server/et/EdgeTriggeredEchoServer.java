package niolab.server.et;

import static niolab.server.base.Counter.PARTIAL_WRITES;

import static niolab.epoll.Linux.EPOLLERR;
import static niolab.epoll.Linux.EPOLLHUP;
import static niolab.epoll.Linux.EPOLLIN;
import static niolab.epoll.Linux.EPOLLOUT;
import static niolab.epoll.Linux.EPOLLRDHUP;

import java.nio.ByteBuffer;
import niolab.epoll.Syscalls;
import niolab.server.base.ServerConfig;
import niolab.server.base.UnboundedOutput;

/**
 * {@code et --protocol echo}: as in {@code lt}, each read is echoed straight back from one shared
 * native buffer. When the kernel takes only part of it, the rest is kept in the connection and
 * the connection is not read from until the rest has gone: pending output never exceeds
 * {@code --buffer-size} per connection, and a client that does not read finds its unread bytes
 * waiting in the kernel.
 */
public final class EdgeTriggeredEchoServer extends EdgeTriggeredServer {
    public EdgeTriggeredEchoServer(ServerConfig config, Syscalls sys) {
        super(config, sys);
    }

    @Override
    protected void onConnectionEvent(EtConnection c, int ready) {
        if ((ready & EPOLLRDHUP) != 0) c.peerShutdown = true;
        // MISTAKE unbounded-output: sends what it queued, then reads on whether all of it went or not.
        if (mistakes.unboundedOutput && c.unsent != null && !flushUnsent(c)) return;
        if (c.pendingLength > 0) {
            // Not writable yet: wait for the EPOLLOUT edge (errors surface through send).
            if ((ready & (EPOLLOUT | EPOLLERR | EPOLLHUP)) == 0 || !flush(c)) return;
        }
        if (c.mayHaveInput || (ready & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP)) != 0) readAndEcho(c);
    }

    /** Reads and echoes until the socket is drained, output backs up, or the connection ends. */
    private void readAndEcho(EtConnection c) {
        c.mayHaveInput = false;
        // BEGIN SOLUTION et-read
        // STUB: // TODO lab 3: one read per edge, as here, leaves bytes in the socket that no edge will announce
        // STUB: // again. Read and echo until read(c) returns 0 or less (drained, or the connection closed), or
        // STUB: // echo() says output backed up; a short read (n < bufferSize) may count as drained, except after
        // STUB: // a half-close (c.peerShutdown). Keep both MISTAKE lines in your loop, where they stand here: the
        // STUB: // et-read-once checkpoint starts your server with --mistake read-once and expects it to break there.
        // STUB: long n = read(c);
        // STUB: if (n <= 0) return;
        // STUB: if (mistakes.unboundedOutput) {
        // STUB:     if (!echoOrQueue(c, n)) return; // MISTAKE unbounded-output: reads on while output is pending
        // STUB: } else if (!echo(c, n)) {
        // STUB:     return; // output backed up (rest kept) or the connection failed
        // STUB: }
        // STUB: if (mistakes.readOnce) return; // MISTAKE read-once: what is left in the socket raises no new edge
        long n;
        while ((n = read(c)) > 0) {
            if (mistakes.unboundedOutput) {
                if (!echoOrQueue(c, n)) return; // MISTAKE unbounded-output: reads on while output is pending
            } else if (!echo(c, n)) {
                return; // output backed up (rest kept) or the connection failed
            }
            if (mistakes.readOnce) return; // MISTAKE read-once: what is left in the socket raises no new edge
            // A short read took all the socket had. Bytes arriving later queue a new edge
            // (epoll re-arms on each arrival), so stop without the read that would say EAGAIN,
            // as Netty's epoll transport does. Not after a half-close: the FIN came with an
            // edge already reported, and nothing will report it again, so read on to EOF.
            if (n < bufferSize && !c.peerShutdown) return;
        }
        // END SOLUTION
    }

    /** Sends {@code n} bytes of the read buffer; false if part of it had to be kept, or the connection failed. */
    private boolean echo(EtConnection c, long n) {
        long w = send(c.fd, readBuffer, n);
        if (w == n) return true;
        if (w < 0) {
            fail(c);
            return false;
        }
        counters.inc(PARTIAL_WRITES);
        c.keep(readBuffer + w, (int) (n - w), bufferSize);
        c.mayHaveInput = true; // we stop reading before EAGAIN: no edge will remind us
        return false;
    }

    /**
     * MISTAKE unbounded-output: sends the read buffer's {@code n} bytes, or queues them behind
     * output still pending, and lets reading go on. A client that does not read is read from all
     * the same, so the queue grows with what it sends, until the switch's safety cap closes the
     * connection. False if the connection was closed.
     */
    private boolean echoOrQueue(EtConnection c, long n) {
        long sent = 0;
        if (c.unsent == null || c.unsent.isEmpty()) {
            sent = send(c.fd, readBuffer, n);
            if (sent == n) return true;
            if (sent < 0) {
                fail(c);
                return false;
            }
            counters.inc(PARTIAL_WRITES);
        }
        if (c.unsent == null) c.unsent = new UnboundedOutput(sys);
        ByteBuffer rest = readMemory.view().duplicate();
        rest.limit((int) n).position((int) sent);
        if (!c.unsent.add(rest)) {
            logOutputCap();
            close(c);
            return false;
        }
        return true;
    }

    /** MISTAKE unbounded-output: sends the queue, oldest first, until it is empty or the socket is full; false if the connection failed. */
    private boolean flushUnsent(EtConnection c) {
        UnboundedOutput q = c.unsent;
        while (!q.isEmpty()) {
            long w = send(c.fd, q.headAddress(), q.headLength());
            if (w < 0) {
                fail(c);
                return false;
            }
            q.sent(w);
            if (w == 0) return true; // full: EPOLLOUT will say when there is room
        }
        return true;
    }

    /**
     * One send of the pending rest; true when all of it has gone. A short send is enough to
     * wait on: it means the send buffer filled up, and the kernel then reports EPOLLOUT once
     * room frees up.
     */
    private boolean flush(EtConnection c) {
        long w = send(c.fd, c.pendingStart(), c.pendingLength);
        if (w < 0) {
            fail(c);
            return false;
        }
        c.sent(w);
        return c.pendingLength == 0;
    }
}
