package niolab.server.vt;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import niolab.server.LabServer;
import org.junit.jupiter.api.Test;

/**
 * A connection's read buffer starts at 4 KiB and doubles, up to {@code --buffer-size}, only
 * when a read fills it: an idle connection holds 4 KiB, a bulk transfer reads in large chunks.
 * Each read is driven by hand, on a connected pair of loopback sockets.
 */
class VtReadBufferTest {
    /** The server (never started: only its read is used) and one connection of it, with its peer. */
    private static final class Pair implements AutoCloseable {
        final VirtualThreadServer server;
        final ServerSocketChannel listener;
        final SocketChannel client;
        final VtConnection c;
        final InputStream available;

        Pair(String bufferSize) throws IOException {
            server = (VirtualThreadServer) LabServer.newServer("vt", "--port", "0", "--buffer-size", bufferSize);
            listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            client = SocketChannel.open(listener.getLocalAddress());
            SocketChannel accepted = listener.accept();
            c = new VtConnection(server, accepted, 0);
            available = accepted.socket().getInputStream();
        }

        /** Sends {@code n} bytes and waits (at most 5 s) until all of them can be read at once. */
        void send(int n) throws IOException, InterruptedException {
            ByteBuffer b = ByteBuffer.wrap(filled(n));
            while (b.hasRemaining()) client.write(b);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (available.available() < n && System.nanoTime() < deadline) Thread.sleep(1);
            assertThat(available.available()).as("bytes waiting").isGreaterThanOrEqualTo(n);
        }

        /** One read; returns how many bytes it brought, checking they are what was sent. */
        int read() throws IOException {
            int n = server.read(c);
            byte[] got = new byte[c.in.remaining()];
            c.in.get(got);
            assertThat(got).isEqualTo(filled(n));
            return n;
        }

        @Override
        public void close() throws IOException {
            client.close();
            c.channel.close();
            listener.close();
        }
    }

    private static byte[] filled(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        return b;
    }

    @Test
    void theBufferStartsAtFourKibibytesAndDoublesOnlyAfterAReadFilledItUpToTheBufferSize() throws Exception {
        try (Pair p = new Pair("16384")) {
            p.send(100);
            assertThat(p.read()).isEqualTo(100);
            assertThat(p.c.in.capacity()).isEqualTo(4096);
            p.send(100);
            assertThat(p.read()).isEqualTo(100);
            assertThat(p.c.in.capacity()).as("a read that did not fill it: same size").isEqualTo(4096);

            // A bulk transfer: whatever sizes the kernel's reads come in, the buffer doubles
            // exactly after each read that filled it, and stops at --buffer-size.
            p.send(100_000);
            int left = 100_000, capacity = 4096;
            boolean filled = false;
            while (left > 0) {
                int n = p.read();
                int expected = filled ? Math.min(2 * capacity, 16_384) : capacity;
                assertThat(p.c.in.capacity()).as("after a read of %d into %d bytes", n, capacity).isEqualTo(expected);
                capacity = expected;
                filled = n == capacity;
                left -= n;
            }
            assertThat(capacity).as("100,000 bytes waiting reach the largest buffer").isEqualTo(16_384);
        }
    }

    @Test
    void aBufferSizeBelowFourKibibytesIsTheWholeBuffer() throws Exception {
        try (Pair p = new Pair("1024")) {
            p.send(3000);
            for (int left = 3000; left > 0; ) {
                left -= p.read();
                assertThat(p.c.in.capacity()).isEqualTo(1024);
            }
        }
    }
}
