package niolab.server.vt;

import java.io.IOException;
import java.nio.ByteBuffer;
import niolab.server.ServerOptions;

/**
 * {@code vt --protocol echo}: read, write it all back, again, until the peer has finished
 * sending. The loop an event-driven server spreads over callbacks and interest ops, in four lines.
 */
final class VirtualThreadEchoServer extends VirtualThreadServer {
    VirtualThreadEchoServer(ServerOptions options) {
        super(options);
    }

    @Override
    protected void serve(VtConnection c) throws IOException {
        // A heap buffer, one per connection and collected with it: the JDK copies through a
        // direct buffer it caches per carrier, and a direct buffer per connection would cost a
        // zeroed native allocation at each accept, freed only when a GC gets to its cleaner.
        ByteBuffer buf = ByteBuffer.allocate(options.bufferSize);
        // BEGIN SOLUTION vt-serve
        // STUB: // TODO lab 7: echo this connection top to bottom, as BlockingServer.serve does in lab 1:
        // STUB: // read(c, buf) parks this virtual thread until bytes come (-1 once the peer has finished
        // STUB: // sending); writeFully(c, buf) parks until the peer has taken them all. As here, it hangs up at once.
        while (read(c, buf) >= 0) {
            writeFully(c, buf); // parks while the peer does not read: nothing more is read meanwhile
        }
        // End of stream: everything the peer sent has been echoed, so the exchange is complete.
        // END SOLUTION
    }
}
