package niolab.uring;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import niolab.epoll.Bindings;
import niolab.epoll.LibC;
import niolab.epoll.Sockets;

/** A listening socket on 127.0.0.1 as a raw fd (for the ring) and blocking Java clients for it (the peers). */
final class Loopback implements AutoCloseable {
    final int listenFd;
    private final int port;

    Loopback() throws IOException {
        listenFd = Sockets.listen(Bindings.jna(), new InetSocketAddress("127.0.0.1", 0), 16, false);
        port = Sockets.localAddress(Bindings.jna(), listenFd).getPort();
    }

    Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    @Override
    public void close() {
        LibC.close(listenFd);
    }
}
