package niolab.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The serial client warms its own code path before its first timed request, against an echo
 * sink of its own in this JVM, never the server under test: a short run then measures a cold
 * server, as the original write-up's native client did, not a cold client too.
 *
 * <p>Cold, a fresh JVM spends its first hundred requests interpreting and compiling the client
 * (connect, write, read, check, close through FFM or a channel), so a short cold run measures the
 * client's JIT as much as the server (experiments/exp-short-run.md compares warmed and cold
 * clients). The warm-up runs the very {@link SerialClient} code, with the run's
 * codec and socket kind, for {@link #REQUESTS} requests or {@link #MAX_NANOS}, whichever ends
 * first; its latencies are thrown away. {@code --cold-client} skips it.
 */
final class ClientWarmup {
    /** Enough for the JIT to compile the request path at its top tier. */
    static final int REQUESTS = 10_000;
    /** A bound on a slow machine; what was done by then counts. */
    static final long MAX_NANOS = 2_000_000_000L;
    private static final int TIMEOUT_MS = 5_000;

    private ClientWarmup() {}

    /** What the warm-up did, for the run's header. */
    record Done(long requests, double seconds, long errors) {}

    /** Runs the serial client of {@code load} against a sink of its own; the target is never contacted. */
    static Done run(LoadSpec load) throws IOException {
        try (EchoSink sink = new EchoSink(load.codec.name().equals("http"))) {
            long start = System.nanoTime();
            SerialClient client = new SerialClient(sink.address(), load.codec, TIMEOUT_MS, REQUESTS, start + MAX_NANOS, false, load.serialKind);
            client.run();
            return new Done(client.stats.corrected.getIntervalHistogram().getTotalCount(), (System.nanoTime() - start) / 1e9,
                    client.stats.errorCount);
        }
    }

    /**
     * One connection at a time, on a loopback port of its own: echoes every byte until the client
     * closes or, for HTTP, answers each request head with a /ping response and closes.
     */
    static final class EchoSink implements AutoCloseable, Runnable {
        private static final byte[] PING = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                + HttpPingCodec.BODY.length + "\r\nConnection: close\r\n\r\n" + new String(HttpPingCodec.BODY, StandardCharsets.US_ASCII))
                .getBytes(StandardCharsets.US_ASCII);

        private final ServerSocketChannel listener;
        private final boolean http;
        private final Thread thread;
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(65536);

        EchoSink(boolean http) throws IOException {
            this.http = http;
            this.listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            this.thread = new Thread(this, "echo-bench-warmup-sink");
            thread.setDaemon(true);
            thread.start();
        }

        InetSocketAddress address() throws IOException {
            return (InetSocketAddress) listener.getLocalAddress();
        }

        @Override
        public void run() {
            while (listener.isOpen()) {
                try (SocketChannel c = listener.accept()) {
                    if (http) answer(c); else echo(c);
                } catch (IOException e) {
                    // the client went away, or the sink is closing: either way the next accept decides
                }
            }
        }

        private void echo(SocketChannel c) throws IOException {
            while (true) {
                buffer.clear();
                if (c.read(buffer) < 0) return;
                buffer.flip();
                while (buffer.hasRemaining()) c.write(buffer);
            }
        }

        private void answer(SocketChannel c) throws IOException {
            buffer.clear();
            while (!headComplete()) {
                if (c.read(buffer) < 0 || !buffer.hasRemaining()) return;
            }
            ByteBuffer ping = ByteBuffer.wrap(PING);
            while (ping.hasRemaining()) c.write(ping);
        }

        /** Whether the bytes read so far end a request head (a blank line). */
        private boolean headComplete() {
            int n = buffer.position();
            return n >= 4 && buffer.get(n - 4) == '\r' && buffer.get(n - 3) == '\n' && buffer.get(n - 2) == '\r' && buffer.get(n - 1) == '\n';
        }

        @Override
        public void close() throws IOException {
            listener.close();
            try {
                thread.join(TIMEOUT_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
