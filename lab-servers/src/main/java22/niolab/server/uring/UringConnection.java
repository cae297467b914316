package niolab.server.uring;

import niolab.server.base.LoopConnection;
import niolab.server.proto.HttpConnection;

/**
 * One connection's state, in a slot of the loop's {@link ConnectionSlots}, reused by the
 * connections that get the same slot later.
 */
final class UringConnection extends LoopConnection {
    /** Index in the loop's table; what a completion's user_data names. */
    final int slot;
    /** The socket, or -1 while the slot is free. */
    int fd = -1;
    /** The sweep number of its last completion ({@link niolab.server.base.IdleSweep}, {@code --idle-timeout}). */
    long lastActive;

    /** A recv is submitted and will still complete (a multishot one until a completion without MORE). */
    boolean recvArmed;
    /** The recv was cancelled because the connection holds too much (kernels without the recv byte limit). */
    boolean recvCancelled;
    /** A send is submitted and will still complete: the connection sends one thing at a time, in order. */
    boolean sending;
    /** Bytes and address of the send in flight. */
    int sendLength;
    long sendAddress;
    /** The peer has half-closed (a recv of 0): answer what was received, then close. */
    boolean peerClosed;
    /** The answer in flight ends the exchange (HTTP Connection: close, 400, 431): close after it. */
    boolean closeAfterSend;
    /** Closed by the loop: the fd is gone, the slot waits for the kernel's last completions. */
    boolean closing;
    /** Every provided buffer was in use when it wanted to receive: re-armed when one comes back. */
    boolean starved;
    UringConnection nextStarved;

    /**
     * What was received and not yet answered: a queue of buffer ids (see {@link RecvBuffers}),
     * and its size in bytes, which bounds the next recv: backpressure.
     */
    int heldHead = -1;
    int heldTail = -1;
    int heldBytes;

    /** {@code --protocol http}: the parser, kept with the slot and reset per connection; null for echo. */
    HttpConnection http;
    /** HTTP: the response buffer in flight ({@link ResponseBuffers}), or -1. */
    int response = -1;
    /** HTTP: a response is owed that did not fit into the last response buffer. */
    boolean moreToAnswer;

    UringConnection(int slot) {
        this.slot = slot;
    }

    void open(int fd, long now) {
        this.fd = fd;
        lastActive = now;
        recvArmed = false;
        recvCancelled = false;
        sending = false;
        peerClosed = false;
        closeAfterSend = false;
        closing = false;
        starved = false;
        heldHead = -1;
        heldTail = -1;
        heldBytes = 0;
        response = -1;
        moreToAnswer = false;
        if (http != null) http.reset();
    }

    boolean isOpen() {
        return fd >= 0 && !closing;
    }

    /** Closed, and the kernel holds no request of it any more: the slot may be reused. */
    boolean isQuiet() {
        return closing && !recvArmed && !sending;
    }
}
