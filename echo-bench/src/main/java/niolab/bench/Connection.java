package niolab.bench;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client connection's state, driven by its {@link LoadLoop}. Buffers and the in-flight
 * ring are allocated once; a short-connection client reuses them for every new socket.
 */
final class Connection {
    static final int IDLE = 0;
    static final int CONNECTING = 1;
    static final int OPEN = 2;

    final int index;
    /** Requests encoded but not yet fully written; always in fill mode. */
    final ByteBuffer out;
    /** Response bytes not yet decoded; always in fill mode. */
    final ByteBuffer in;
    /** FIFO of in-flight requests: intended and actual start (nanoTime); responses come in order. */
    final long[] intended;
    final long[] started;
    int head;
    int inFlight;
    final RateSchedule schedule;

    SocketChannel channel;
    SelectionKey key;
    int state = IDLE;
    int interest;
    /** When the current wait (connect, response) gives up; Long.MAX_VALUE when nothing is awaited. */
    long deadline = Long.MAX_VALUE;
    /** No new connect before this (a short back-off after a failed connect). */
    long retryAt;
    boolean done;

    Connection(int index, int pipeline, Codec codec, RateSchedule schedule) {
        this.index = index;
        this.out = ByteBuffer.allocateDirect(pipeline * codec.requestLength());
        // Sized to what can be in flight, not to 64 KiB: with hundreds of connections, small
        // buffers keep the client's working set in cache, as the server's one shared buffer is.
        this.in = ByteBuffer.allocateDirect(Math.max(4096, 2 * pipeline * codec.maxResponseLength()));
        this.intended = new long[pipeline];
        this.started = new long[pipeline];
        this.schedule = schedule;
    }

    void push(long intendedNanos, long startedNanos) {
        int i = (head + inFlight) % intended.length;
        intended[i] = intendedNanos;
        started[i] = startedNanos;
        inFlight++;
    }

    void pop() {
        head = (head + 1) % intended.length;
        inFlight--;
    }
}
