package niolab.server;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.UnresolvedAddressException;

/** The listening socket of a java.nio server, opened one way for every architecture that uses one. */
public final class Listeners {
    private Listeners() {
    }

    /**
     * A channel bound to {@code --host}:{@code --port} with {@code --backlog}, SO_REUSEADDR set,
     * and SO_REUSEPORT with {@code --reuse-port}; in blocking mode, the JDK's default.
     */
    public static ServerSocketChannel open(ServerOptions options) throws IOException {
        InetSocketAddress local = new InetSocketAddress(options.host, options.port);
        if (local.isUnresolved()) throw new UnresolvedAddressException();
        // The socket family follows the address: left to itself the JDK opens a dual-stack
        // AF_INET6 socket even for 127.0.0.1, and SO_REUSEPORT groups only sockets of one family.
        ServerSocketChannel listener = ServerSocketChannel.open(local.getAddress() instanceof Inet4Address
                ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
        try {
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            if (options.reusePort) listener.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            listener.bind(local, options.backlog);
        } catch (IOException | RuntimeException e) {
            listener.close();
            throw e;
        }
        return listener;
    }
}
