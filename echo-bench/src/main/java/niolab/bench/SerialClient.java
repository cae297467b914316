package niolab.bench;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;

/**
 * The seed's serial run: one request at a time, each on a fresh TCP connection (connect,
 * write the payload, read until the whole echo is back, compare, close).
 *
 * <p>Blocking {@link Socket}s on purpose: with one request in flight there is nothing to
 * multiplex, and a blocking read with {@code SO_TIMEOUT} bounds every wait.
 */
public final class SerialClient {
    private final InetSocketAddress target;
    private final byte[] payload;
    private final byte[] echo;
    private final int timeoutMs;

    public SerialClient(InetSocketAddress target, byte[] payload, int timeoutMs) {
        this.target = target;
        this.payload = payload;
        this.echo = new byte[payload.length];
        this.timeoutMs = timeoutMs;
    }

    /** Runs {@code requests} requests into {@code into}; its elapsed time covers them all. */
    public void run(long requests, RunResult into) {
        long start = System.nanoTime();
        for (long i = 0; i < requests; i++) {
            long t0 = System.nanoTime();
            ErrorClass failure = request();
            if (failure == null) {
                into.latencyUs.recordValue((echoedAt - t0) / 1000);
            } else {
                into.errors.add(failure, lastError);
            }
        }
        into.elapsedNanos = System.nanoTime() - start;
    }

    private String lastError;
    /** When the last byte of the echo arrived: latency excludes the close that follows. */
    private long echoedAt;

    /** One request; null when the echo came back exactly, else why it failed. */
    ErrorClass request() {
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeoutMs);
            s.connect(target, timeoutMs);
            s.getOutputStream().write(payload);
            InputStream in = s.getInputStream();
            int got = 0;
            while (got < echo.length) {
                int n = in.read(echo, got, echo.length - got);
                if (n < 0) throw new EOFException("closed after " + got + " of " + echo.length + " bytes");
                got += n;
            }
            echoedAt = System.nanoTime();
            return Arrays.equals(payload, echo) ? null : ErrorClass.MISMATCH;
        } catch (IOException e) {
            lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
            return ErrorClass.of(e);
        }
    }
}
