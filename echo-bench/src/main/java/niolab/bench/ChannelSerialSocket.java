package niolab.bench;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * {@link SerialSocket} on a blocking {@link SocketChannel}, opened per request: socket,
 * setsockopt, connect, getsockname x2, write, read, close. Blocking mode calls read and write
 * straight away (no poll first, unlike {@code java.net.Socket} with a timeout, which also
 * toggles O_NONBLOCK with fcntl around each wait); direct buffers spare the JDK a copy.
 */
final class ChannelSerialSocket implements SerialSocket {
    private final InetSocketAddress target;
    /** The family of the target: left to itself the JDK opens AF_INET6 and adds a setsockopt (IPV6_V6ONLY). */
    private final StandardProtocolFamily family;
    private final boolean linger0;
    private final ByteBuffer out;
    private final ByteBuffer in;
    private SocketChannel channel;

    ChannelSerialSocket(InetSocketAddress target, boolean linger0, ByteBuffer out, ByteBuffer in) {
        this.target = target;
        this.family = target.getAddress() instanceof Inet4Address ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6;
        this.linger0 = linger0;
        this.out = out;
        this.in = in;
    }

    @Override
    public void open() throws IOException {
        channel = SocketChannel.open(family);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        if (linger0) channel.setOption(StandardSocketOptions.SO_LINGER, 0);
    }

    @Override
    public void connect() throws IOException {
        channel.connect(target); // the JDK then asks for the local address: getsockname, twice
    }

    @Override
    public void write() throws IOException {
        while (out.hasRemaining()) channel.write(out);
    }

    @Override
    public int read() throws IOException {
        return channel.read(in);
    }

    @Override
    public void close() {
        if (channel == null) return; // the first open failed
        try {
            channel.close();
        } catch (IOException ignored) {
            // the socket is gone either way
        }
    }

    /** Closing a channel from another thread wakes its blocked call with AsynchronousCloseException. */
    @Override
    public void abort() {
        close();
    }
}
