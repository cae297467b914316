package niolab.server;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import niolab.epoll.ErrnoException;
import niolab.epoll.Sockets;

/** The listening socket of a loop that works on raw fds (et, uring), opened as {@link ServerOptions} say. */
public final class RawListener {
    private RawListener() {
    }

    /**
     * A non-blocking listening socket's fd. A failed bind becomes a {@link BindException}, which
     * {@link ServerRunner} turns into the same one-line errors as lt's.
     */
    public static int open(ServerOptions options) throws IOException {
        InetSocketAddress at = new InetSocketAddress(InetAddress.getByName(options.host), options.port);
        try {
            return Sockets.listen(at, options.backlog, options.reusePort);
        } catch (ErrnoException e) {
            if (!e.call().equals("bind")) throw e;
            BindException b = new BindException(e.getMessage());
            b.initCause(e);
            throw b;
        }
    }
}
