package niolab.netty;

import java.nio.ByteBuffer;
import niolab.server.base.BusyWork;
import niolab.server.base.Counter;
import niolab.server.base.Counters;
import niolab.server.base.Protocol;
import niolab.server.base.ServerConfig;

/**
 * What the handlers of one Netty event loop share: its counters and, for the lab's own HTTP
 * parser, two scratch buffers. All of a loop's channels run on its one thread, so plain fields
 * and shared buffers are safe there, as in the hand-written loops.
 */
final class PeerLoop {
    /** Netty's selects and epoll_waits happen inside Netty, uncounted; the name says so, the value is 0. */
    static final String WAIT_NAME = "waits_uncounted";
    final Counters counters = new Counters(WAIT_NAME);
    /** HTTP input copied out of Netty's read buffer, so parsing never aliases Netty's internal views. */
    final ByteBuffer in;
    /** HTTP responses are assembled here, then copied into one pooled ByteBuf per batch. */
    final ByteBuffer out;
    /** HTTP's lingering close after a closing answer: {@code --linger-time} in ns, {@code --linger-bytes}. */
    final long lingerNanos;
    final long lingerBytes;
    /** {@code --work-ns}: echo's per read, HTTP's per request (the parser pays it); null without it. */
    final BusyWork readWork;
    final BusyWork requestWork;

    PeerLoop(ServerConfig config, int minOut) {
        in = ByteBuffer.allocateDirect(config.bufferSize());
        out = ByteBuffer.allocateDirect(Math.max(config.bufferSize(), minOut));
        lingerNanos = config.lingerTime().toNanos();
        lingerBytes = config.lingerBytes();
        if (config.protocol() == Protocol.HTTP) counters.declare(Counter.LINGER_ROWS);
        readWork = BusyWork.perRead(config, counters);
        requestWork = BusyWork.perRequest(config, counters);
    }
}
