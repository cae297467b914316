package niolab.bench;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * The seed's serial run: one request at a time, each on a fresh TCP connection (connect,
 * write the request, read until the whole response is back, check it, close).
 *
 * <p>Blocking {@link Socket}s on purpose: with one request in flight there is nothing to
 * multiplex, a blocking read with {@code SO_TIMEOUT} bounds every wait, and the syscall
 * sequence is the seed's (no epoll_wait between the steps).
 */
public final class SerialClient implements Runnable {
    private final InetSocketAddress target;
    private final Codec codec;
    private final int timeoutMs;
    private final long requests;
    private final long endNanos;
    private final boolean linger0;
    final LoopStats stats = new LoopStats(false);
    private final ByteBuffer out;
    private final ByteBuffer in;
    private String lastError;
    /** When the last byte of the response arrived: latency excludes the close that follows. */
    private long echoedAt;

    /**
     * Runs {@code requests} requests, or until {@code endNanos}, whichever comes first;
     * {@code linger0} closes each socket with SO_LINGER 0 (RST, no TIME-WAIT on this side).
     */
    public SerialClient(InetSocketAddress target, Codec codec, int timeoutMs, long requests, long endNanos, boolean linger0) {
        this.target = target;
        this.codec = codec;
        this.timeoutMs = timeoutMs;
        this.requests = requests;
        this.endNanos = endNanos;
        this.linger0 = linger0;
        this.out = ByteBuffer.allocate(codec.requestLength());
        this.in = ByteBuffer.allocate(Math.max(65536, 2 * codec.maxResponseLength()));
    }

    @Override
    public void run() {
        long cpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        for (long i = 0; i < requests && System.nanoTime() < endNanos; i++) {
            long t0 = System.nanoTime();
            ErrorClass failure = request();
            if (failure == null) {
                stats.corrected.recordValue((echoedAt - t0) / 1000);
                stats.lastCompletionNanos = echoedAt;
            } else {
                stats.error(failure, 1, lastError);
            }
        }
        stats.cpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
    }

    /** One request; null when the response came back exactly, else why it failed. */
    ErrorClass request() {
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeoutMs);
            if (linger0) s.setSoLinger(true, 0);
            s.connect(target, timeoutMs);
            out.clear();
            codec.encodeRequest(out);
            s.getOutputStream().write(out.array(), 0, out.position());
            InputStream is = s.getInputStream();
            in.clear();
            while (true) {
                int n = is.read(in.array(), in.position(), in.remaining());
                if (n < 0) throw new EOFException("closed after " + in.position() + " bytes");
                in.position(in.position() + n);
                in.flip();
                int r = codec.decodeResponse(in);
                if (r == Codec.MISMATCH) return ErrorClass.MISMATCH;
                if (r > 0) {
                    echoedAt = System.nanoTime();
                    return null;
                }
                in.position(in.limit()).limit(in.capacity());
                if (!in.hasRemaining()) return ErrorClass.MISMATCH; // longer than any valid response
            }
        } catch (IOException e) {
            lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
            return ErrorClass.of(e);
        }
    }
}
