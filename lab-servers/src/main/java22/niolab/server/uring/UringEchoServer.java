package niolab.server.uring;

import niolab.server.base.ServerConfig;
import niolab.uring.UringCapabilities;

/**
 * {@code uring --protocol echo}: the received bytes are sent back from the very buffer they
 * arrived in (its own buffer in basic mode, a pool buffer otherwise): no copy. The buffer is
 * given back once its last byte has gone, so a client that does not read holds at most
 * {@code --buffer-size} here, and the rest waits in the kernel.
 */
public final class UringEchoServer extends UringServer {
    public UringEchoServer(ServerConfig config, UringMode mode, UringCapabilities capabilities) {
        super(config, mode, capabilities);
    }

    @Override
    protected void respond(UringConnection c) {
        send(c, input.heldAddress(c), input.heldLength(c));
    }

    /** A short send is not an error in a completion model either: the rest goes next. */
    @Override
    protected void sent(UringConnection c, int n) {
        input.consume(c, n);
        if (c.heldHead >= 0) respond(c);
    }
}
