package niolab.bench;

import java.io.EOFException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The original write-up's serial run: one request at a time, each on a fresh TCP connection (connect,
 * write the request, read until the whole response is back, check it, close).
 *
 * <p>It makes the syscalls of a minimal C client (reference/serial-client.c): socket,
 * setsockopt TCP_NODELAY, connect, write, read, close, and no others per request: with one
 * request in flight the client's own calls are part of every latency it reports, so each extra
 * cheap call (poll, fcntl, getsockname, setsockopt) per request adds to every latency
 * (experiments/exp-syscalls.md counts the calls, experiments/exp-ffi.md their cost). How:
 * <ul>
 *   <li>Blocking calls, no multiplexing: with one connection there is nothing to wait for but
 *       it, so a blocked read is the whole wait. A selector would add epoll_ctl and
 *       epoll_wait per request.</li>
 *   <li>Not {@code java.net.Socket}: with a timeout it polls before each read and switches
 *       O_NONBLOCK with fcntl around each wait: about twenty extra calls per request (fcntl
 *       x6, getsockopt x2, getsockname x2, poll, shutdown...).</li>
 *   <li>Not SO_RCVTIMEO (and SO_SNDTIMEO for connect): two setsockopt per request, and the
 *       JDK's channels do not offer them. A {@link Watchdog} thread bounds every blocking call
 *       by {@code --timeout} instead: before each call the client stamps a deadline (one
 *       volatile store, under a nanosecond), and the watchdog, waking about once per timeout,
 *       aborts the socket when a call outlives its stamp. Per request that is two uncontended
 *       monitor entries and no syscall.</li>
 *   <li>The calls go through a {@link SerialSocket}: raw syscalls through FFM on JDK 22+
 *       (exactly the C client's six; JNA could do it on JDK 17 too, but echo-bench depends on
 *       no native library), else a blocking {@code SocketChannel} (the same plus the two
 *       getsockname the JDK makes on every connect, under 1 µs together).</li>
 *   <li>Reused across requests: the two direct buffers, the codec and the socket wrapper; the
 *       FFM calls allocate nothing.</li>
 * </ul>
 * Every response is checked byte for byte by the codec; failures are counted by
 * {@link ErrorClass}, and a call the watchdog cut short counts as a timeout.
 */
public final class SerialClient implements Runnable {
    private final Codec codec;
    private final long requests;
    private final long endNanos;
    private final Watchdog watchdog;
    private final SerialSocket socket;
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
        this(target, codec, timeoutMs, requests, endNanos, linger0, SerialSocket.Kind.forRun(true));
    }

    SerialClient(InetSocketAddress target, Codec codec, int timeoutMs, long requests, long endNanos, boolean linger0,
            SerialSocket.Kind kind) {
        this.codec = codec;
        this.requests = requests;
        this.endNanos = endNanos;
        this.watchdog = new Watchdog(timeoutMs * 1_000_000L);
        this.out = ByteBuffer.allocateDirect(codec.requestLength());
        this.in = ByteBuffer.allocateDirect(Math.max(65536, 2 * codec.maxResponseLength()));
        this.socket = kind.create(target, linger0, out, in);
    }

    @Override
    public void run() {
        long cpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        watchdog.start(Thread.currentThread().getName() + "-watchdog");
        try {
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
        } finally {
            watchdog.stop();
        }
        stats.cpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
    }

    /** One request; null when the response came back exactly, else why it failed. */
    ErrorClass request() {
        ErrorClass failure;
        try {
            socket.open();
        } catch (IOException e) {
            socket.close();
            return failed(e);
        }
        watchdog.watch(socket);
        try {
            failure = exchange();
        } catch (IOException e) {
            failure = failed(e);
        }
        if (watchdog.release() && failure != null) {
            failure = ErrorClass.TIMEOUT; // the watchdog's abort is what made the call fail
            lastError = "no answer within --timeout (the watchdog aborted the call)";
        }
        socket.close();
        return failure;
    }

    /** Connect, send, receive: each blocking call under a fresh deadline. */
    private ErrorClass exchange() throws IOException {
        watchdog.arm();
        socket.connect();
        out.clear();
        codec.encodeRequest(out);
        out.flip();
        watchdog.arm();
        socket.write();
        in.clear();
        while (true) {
            watchdog.arm();
            if (socket.read() < 0) throw new EOFException("closed after " + in.position() + " bytes");
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
    }

    private ErrorClass failed(IOException e) {
        lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
        return ErrorClass.of(e);
    }
}
