package niolab.server.backend;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * How the loop posture's client ({@link RedisPipeline}) reaches its socket on one kind of event
 * loop: a SocketChannel registered with the loop's Selector (lt), a raw fd in the loop's epoll
 * set (et). The loop hands the socket's readiness to {@link RedisPipeline#onReady}.
 */
public interface RedisTransport {
    /** Starts a non-blocking connect and has the loop watch the socket; true if already connected. */
    boolean connect(InetSocketAddress address) throws IOException;

    /** The connecting socket was reported writable: true once connected; throws if the connect failed. */
    boolean finishConnect() throws IOException;

    /** Writes what the socket takes from {@code src}: the bytes written, 0 if none. */
    int send(ByteBuffer src) throws IOException;

    /** Reads into {@code dst}: the bytes read, 0 if none are waiting, -1 at end of stream. */
    int receive(ByteBuffer dst) throws IOException;

    /** Whether the loop should report the socket writable: only while a write is pending. */
    void watchWritable(boolean on);

    /** Closes the socket (it leaves the loop's wait with it); harmless when none is open. */
    void close();
}
