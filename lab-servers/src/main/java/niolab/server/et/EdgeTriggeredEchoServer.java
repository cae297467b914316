package niolab.server.et;

import static niolab.server.Counter.PARTIAL_WRITES;

import static niolab.epoll.LibC.EPOLLERR;
import static niolab.epoll.LibC.EPOLLHUP;
import static niolab.epoll.LibC.EPOLLIN;
import static niolab.epoll.LibC.EPOLLOUT;
import static niolab.epoll.LibC.EPOLLRDHUP;

import niolab.server.ServerOptions;

/**
 * {@code et --protocol echo}: as in {@code lt}, each read is echoed straight back from one shared
 * native buffer. When the kernel takes only part of it, the rest is kept in the connection and
 * the connection is not read from until the rest has gone: pending output never exceeds
 * {@code --buffer-size} per connection, and a client that does not read finds its unread bytes
 * waiting in the kernel.
 */
public final class EdgeTriggeredEchoServer extends EdgeTriggeredServer {
    public EdgeTriggeredEchoServer(ServerOptions options) {
        super(options);
    }

    @Override
    protected void onConnectionEvent(EtConnection c, int ready) {
        if ((ready & EPOLLRDHUP) != 0) c.peerShutdown = true;
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
        // STUB: // again. Read and echo until the socket is drained, echo() says output backed up, or it closed;
        // STUB: // a short read may count as drained, except after a half-close (c.peerShutdown).
        // STUB: long n = read(c);
        // STUB: if (n > 0) echo(c, n);
        long n;
        while ((n = read(c)) > 0) {
            if (!echo(c, n)) return; // output backed up (rest kept) or the connection failed
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
