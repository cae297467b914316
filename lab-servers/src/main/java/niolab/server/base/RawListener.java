package niolab.server.base;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import niolab.epoll.ErrnoException;
import niolab.epoll.Sockets;
import niolab.epoll.Syscalls;

/**
 * The listening socket of a loop on raw fds (et, uring), opened one way for both; the twin of
 * {@link NioListener}, from the same config.
 */
public final class RawListener {
    private RawListener() {
    }

    /**
     * A non-blocking, close-on-exec socket bound to {@code --host}:{@code --port} with
     * {@code --backlog}, SO_REUSEADDR set, and SO_REUSEPORT with {@code --reuse-port}; its fd,
     * opened through {@code sys}. A failed bind becomes a {@link BindException}, which
     * {@link ServerRunner} turns into the same one-line errors as {@link NioListener}'s.
     */
    public static int open(Syscalls sys, ServerConfig config) throws IOException {
        InetSocketAddress at = new InetSocketAddress(InetAddress.getByName(config.host()), config.port());
        try {
            return Sockets.listen(sys, at, config.backlog(), config.reusePort());
        } catch (ErrnoException e) {
            if (!e.call().equals("bind")) throw e;
            BindException b = new BindException(e.getMessage());
            b.initCause(e);
            throw b;
        }
    }
}
