package niolab.server.et;

import niolab.epoll.NativeBuffer;
import niolab.epoll.Syscalls;
import niolab.server.base.LoopConnection;
import niolab.server.base.UnboundedOutput;
import niolab.server.proto.HttpConnection;

/**
 * One connection's state, found by its fd. The object is kept and reused by the next
 * connection that gets the same fd number (the kernel hands out the lowest free one), so
 * accepting allocates nothing once the loop has warmed up.
 */
final class EtConnection extends LoopConnection {
    /** The socket, or -1 while this slot is free. */
    int fd = -1;
    /**
     * We stopped reading before the kernel said EAGAIN (output backed up). Under ET no new edge
     * will announce bytes that are already waiting, so the loop must remember to come back.
     */
    boolean mayHaveInput;
    /** The peer has half-closed (EPOLLRDHUP): its FIN will not be reported again, so read to EOF. */
    boolean peerShutdown;
    /** The sweep number of its last event ({@link niolab.server.base.IdleSweep}, {@code --idle-timeout}). */
    long lastActive;
    /** {@code et --protocol http}: the parser and parked output, kept with the slot and reset per connection; null for echo. */
    HttpConnection http;
    /** MISTAKE unbounded-output: everything read while output was pending; null otherwise. */
    UnboundedOutput unsent;

    /** Echo bytes the kernel has not taken yet, at {@code pendingAddress + pendingOffset}. */
    int pendingLength;
    int pendingOffset;
    private final Syscalls sys;
    private NativeBuffer pending;
    private long pendingAddress;

    EtConnection(Syscalls sys) {
        this.sys = sys;
    }

    void open(int fd, long now) {
        this.fd = fd;
        lastActive = now;
        mayHaveInput = false;
        peerShutdown = false;
        pendingLength = 0;
        pendingOffset = 0;
        if (http != null) http.reset();
    }

    /** Keeps {@code length} unsent bytes from {@code from}; the buffer is allocated only by connections that need one. */
    void keep(long from, int length, int capacity) {
        if (pending == null) {
            pending = NativeBuffer.allocate(sys, capacity);
            pendingAddress = pending.address();
        }
        sys.memcpy(pendingAddress, from, length);
        pendingOffset = 0;
        pendingLength = length;
    }

    long pendingStart() {
        return pendingAddress + pendingOffset;
    }

    void sent(long n) {
        pendingOffset += (int) n;
        pendingLength -= (int) n;
    }

    /** Marks the slot free and returns the pending buffer, if any: an idle fd number holds no memory. */
    void closed() {
        fd = -1;
        pendingLength = 0;
        if (pending != null) {
            pending.close();
            pending = null;
            pendingAddress = 0;
        }
        if (unsent != null) {
            unsent.free();
            unsent = null;
        }
    }
}
