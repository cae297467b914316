package niolab.server.vt;

import java.io.IOException;
import niolab.server.base.ServerConfig;

/**
 * {@code vt --protocol echo}: read, write it all back, again, until the peer has finished
 * sending. The loop an event-driven server spreads over callbacks and interest ops, in four lines.
 */
final class VirtualThreadEchoServer extends VirtualThreadServer {
    VirtualThreadEchoServer(ServerConfig config) {
        super(config);
    }

    @Override
    protected void serve(VtConnection c) throws IOException {
        // BEGIN SOLUTION vt-serve
        // STUB: // TODO lab 7: echo this connection top to bottom, as BlockingServer.serve does in lab 1:
        // STUB: // read(c) parks this virtual thread until bytes come into c.in (-1 once the peer has finished
        // STUB: // sending); writeFully(c, c.in) parks until the peer has taken them all. As here, it hangs up at once.
        while (read(c) >= 0) {
            writeFully(c, c.in); // parks while the peer does not read: nothing more is read meanwhile
        }
        // End of stream: everything the peer sent has been echoed, so the exchange is complete.
        // END SOLUTION
    }
}
