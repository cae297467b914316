package niolab.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/** Blocking test clients for echo servers; every socket wait is bounded by {@link #TIMEOUT_MS}. */
public final class Echo {
    public static final int TIMEOUT_MS = 20_000;

    private Echo() {
    }

    public static Socket connect(InetSocketAddress address) throws IOException {
        Socket s = new Socket();
        s.setSoTimeout(TIMEOUT_MS);
        s.connect(address, TIMEOUT_MS);
        return s;
    }

    /** A client with a small receive buffer, so that the server's send buffer fills while it dawdles. */
    public static Socket slowReader(InetSocketAddress address) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(8 * 1024);
        s.setSoTimeout(TIMEOUT_MS);
        s.connect(address, TIMEOUT_MS);
        return s;
    }

    public static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < size; i++) b[i] = (byte) r.nextInt(256);
        return b;
    }

    /** One connection: writes {@code payload} in random chunks (on another thread) while reading the echo. */
    public static byte[] roundTrip(InetSocketAddress address, byte[] payload, int maxChunk, long seed) throws Exception {
        try (Socket s = connect(address)) {
            CompletableFuture<Void> writer = writeAsync(s, payload, maxChunk, seed);
            byte[] echo = readExactly(s.getInputStream(), payload.length);
            writer.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return echo;
        }
    }

    public static CompletableFuture<Void> writeAsync(Socket s, byte[] payload, int maxChunk, long seed) {
        return CompletableFuture.runAsync(() -> {
            try {
                OutputStream out = s.getOutputStream();
                SplittableRandom r = new SplittableRandom(seed);
                int off = 0;
                while (off < payload.length) {
                    int n = Math.min(payload.length - off, 1 + r.nextInt(maxChunk));
                    out.write(payload, off, n);
                    off += n;
                }
                out.flush();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, runnable -> {
            Thread t = new Thread(runnable, "echo-writer");
            t.setDaemon(true);
            t.start();
        });
    }

    /**
     * A client that sends {@code bytes} in 64 KiB chunks and never reads, on a daemon thread,
     * counting what it wrote in {@code written}; it ends quietly when the socket is closed.
     */
    public static Thread writeWithoutReading(Socket s, long bytes, AtomicLong written) {
        Thread writer = new Thread(() -> {
            byte[] chunk = new byte[64 * 1024];
            try {
                OutputStream out = s.getOutputStream();
                while (written.get() < bytes) {
                    out.write(chunk);
                    written.addAndGet(chunk.length);
                }
            } catch (IOException closed) {
                // by the test, or by the server
            }
        }, "never-reads");
        writer.setDaemon(true);
        writer.start();
        return writer;
    }

    /** Waits (bounded, 30 s) until {@code written} reaches {@code target} or has not moved for a second: done, or held back. */
    public static void awaitDoneOrHeldBack(AtomicLong written, long target) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long last = -1;
        int still = 0;
        while (written.get() < target && still < 5 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            long now = written.get();
            still = now == last ? still + 1 : 0;
            last = now;
        }
    }

    /** Reads exactly {@code n} bytes, or throws if the stream ends first. */
    public static byte[] readExactly(InputStream in, int n) throws IOException {
        byte[] b = new byte[n];
        int got = 0;
        while (got < n) {
            int r = in.read(b, got, n - got);
            if (r < 0) throw new IOException("stream ended after " + got + " of " + n + " bytes");
            got += r;
        }
        return b;
    }

    /** Reads until end of stream (bounded by the socket timeout); returns everything read. */
    public static byte[] readToEnd(InputStream in) throws IOException {
        return in.readAllBytes();
    }

    public static <T> T await(CompletableFuture<T> f) throws InterruptedException, ExecutionException, TimeoutException {
        return f.get(TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS);
    }

    public static boolean same(byte[] a, byte[] b) {
        return Arrays.equals(a, b);
    }
}
