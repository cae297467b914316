package niolab.server.backend;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/** The loop posture on lt: a non-blocking SocketChannel registered with the loop's own Selector. */
public final class NioRedisTransport implements RedisTransport {
    /** Registers a channel with the loop's Selector, its readiness to come back to the backend. */
    public interface Watcher {
        SelectionKey watch(SelectableChannel channel, int ops) throws IOException;
    }

    private final Watcher watcher;
    private SocketChannel channel;
    private SelectionKey key;

    public NioRedisTransport(Watcher watcher) {
        this.watcher = watcher;
    }

    @Override
    public boolean connect(InetSocketAddress address) throws IOException {
        channel = SocketChannel.open();
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        boolean connected = channel.connect(address);
        key = watcher.watch(channel, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT);
        return connected;
    }

    @Override
    public boolean finishConnect() throws IOException {
        if (!channel.finishConnect()) return false;
        key.interestOps(SelectionKey.OP_READ);
        return true;
    }

    @Override
    public int send(ByteBuffer src) throws IOException {
        return channel.write(src);
    }

    @Override
    public int receive(ByteBuffer dst) throws IOException {
        return channel.read(dst);
    }

    @Override
    public void watchWritable(boolean on) {
        // Level-triggered: a standing OP_WRITE would report a socket with room on every select.
        key.interestOps(on ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }

    @Override
    public void close() {
        if (key != null) key.cancel();
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing left to tell Redis
            }
        }
        key = null;
        channel = null;
    }
}
