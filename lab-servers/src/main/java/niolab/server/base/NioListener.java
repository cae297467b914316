package niolab.server.base;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.UnresolvedAddressException;

/**
 * The listening socket of a server on the JDK's sockets (lt, vt, bio), opened one way for all
 * of them; {@link RawListener} is its twin for the loops on raw fds (et, uring).
 */
public final class NioListener {
    private NioListener() {
    }

    /**
     * A channel bound to {@code --host}:{@code --port} with {@code --backlog}, SO_REUSEADDR set,
     * and SO_REUSEPORT with {@code --reuse-port}; in blocking mode, the JDK's default. A port in
     * use is a {@link java.net.BindException}, which {@link ServerRunner} turns into one line.
     */
    public static ServerSocketChannel open(ServerConfig config) throws IOException {
        InetSocketAddress local = new InetSocketAddress(config.host(), config.port());
        if (local.isUnresolved()) throw new UnresolvedAddressException();
        return open(local, config.backlog(), config.reusePort());
    }

    /** The same at a resolved address. */
    public static ServerSocketChannel open(InetSocketAddress local, int backlog, boolean reusePort) throws IOException {
        // The socket family follows the address: left to itself the JDK opens a dual-stack
        // AF_INET6 socket even for 127.0.0.1, and SO_REUSEPORT groups only sockets of one family.
        ServerSocketChannel listener = ServerSocketChannel.open(local.getAddress() instanceof Inet4Address
                ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
        try {
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            if (reusePort) listener.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            listener.bind(local, backlog);
        } catch (IOException | RuntimeException e) {
            listener.close();
            throw e;
        }
        return listener;
    }
}
