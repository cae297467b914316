package niolab.netty;

import java.nio.ByteBuffer;
import niolab.server.Counters;

/**
 * What the handlers of one Netty event loop share: its counters and, for the lab's own HTTP
 * parser, two scratch buffers. All of a loop's channels run on its one thread, so plain fields
 * and shared buffers are safe there, as in the hand-written loops.
 */
final class PeerLoop {
    final Counters counters = new Counters();
    /** HTTP input copied out of Netty's read buffer, so parsing never aliases Netty's internal views. */
    final ByteBuffer in;
    /** HTTP responses are assembled here, then copied into one pooled ByteBuf per batch. */
    final ByteBuffer out;

    PeerLoop(int bufferSize, int minOut) {
        in = ByteBuffer.allocateDirect(bufferSize);
        out = ByteBuffer.allocateDirect(Math.max(bufferSize, minOut));
    }
}
