package niolab.server.vt;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import niolab.server.base.BusyWork;
import niolab.server.base.Counters;

/**
 * One connection of vt, and the task of its virtual thread. Its buffers are fields, since they
 * grow ({@link VirtualThreadServer#read}); everything else it needs (for HTTP its parser) lives
 * in its thread's frames, for as long as it is open. Only its own thread touches the buffers.
 */
final class VtConnection implements Runnable {
    final SocketChannel channel;
    /** What this connection's thread counted; summed by readers, folded into the total at close. */
    final Counters counters = new Counters("waits");
    /** {@code --work-ns} per read of an echo connection, counted by this thread; null without it. */
    final BusyWork readWork;
    /** The idle sweep of its last read or write ({@link niolab.server.base.IdleSweep}); read by the sweeper thread. */
    volatile long lastActive;
    /** What the last read brought, flipped; a heap buffer (see {@link VirtualThreadServer#read}). */
    ByteBuffer in;
    /** HTTP's answers to the last read, written in one write; null for echo. */
    ByteBuffer out;
    private final VirtualThreadServer server;

    VtConnection(VirtualThreadServer server, SocketChannel channel, long lastActive) {
        this.server = server;
        this.channel = channel;
        this.lastActive = lastActive;
        this.readWork = BusyWork.perRead(server.config, counters);
    }

    @Override
    public void run() {
        server.handle(this);
    }
}
