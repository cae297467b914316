package niolab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * A tiny thread-per-connection server for echo-bench's tests, with a behaviour knob: echo
 * faithfully, corrupt one byte, corrupt one connection in {@link #CORRUPT_ONE_IN} (a known error
 * rate), reset, close early, stay silent, or echo but pause once for {@link #STALL_MS} (a
 * synthetic stall for the coordinated-omission test), or echo each read after {@link #SLOW_MS}
 * (a server slower on purpose, for compare). {@link #reads()} counts what it answered.
 */
final class TestEchoServer extends TestServer {
    enum Mode { ECHO, CORRUPT, CORRUPT_SOME, RESET, CLOSE_EARLY, SILENT, STALL_ONCE, SLOW }

    /** CORRUPT_SOME corrupts every connection whose number (counted from 1, over all) is a multiple of this. */
    static final int CORRUPT_ONE_IN = 4;
    /** Connections that sent something: a client's bare connect (echo-bench's probe) does not count. */
    private final java.util.concurrent.atomic.AtomicInteger talking = new java.util.concurrent.atomic.AtomicInteger();

    static final long STALL_MS = 200;
    /** STALL_ONCE pauses before answering this read (counted over all connections). */
    static final int STALL_AT_READ = 300;
    private final java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();

    static final long SLOW_MS = 2;

    private final Mode mode;

    TestEchoServer(Mode mode) throws IOException {
        super("test-echo");
        this.mode = mode;
        start();
    }

    @Override
    protected void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[65536];
            int n = in.read(buf);
            if (n <= 0) return;
            boolean corrupt = mode == Mode.CORRUPT || mode == Mode.CORRUPT_SOME && talking.incrementAndGet() % CORRUPT_ONE_IN == 0;
            switch (corrupt ? Mode.CORRUPT : mode) {
                case ECHO, CORRUPT_SOME -> {
                    do {
                        reads.incrementAndGet();
                        out.write(buf, 0, n);
                    } while ((n = in.read(buf)) > 0);
                }
                case CORRUPT -> {
                    buf[0] ^= 0x55;
                    out.write(buf, 0, n);
                    while (in.read(buf) > 0) { /* drain */ }
                }
                case RESET -> s.setSoLinger(true, 0);
                case CLOSE_EARLY -> out.write(buf, 0, Math.max(0, n / 2));
                case STALL_ONCE -> {
                    do {
                        if (reads.incrementAndGet() == STALL_AT_READ) sleep(STALL_MS);
                        out.write(buf, 0, n);
                    } while ((n = in.read(buf)) > 0);
                }
                case SLOW -> {
                    do {
                        sleep(SLOW_MS);
                        reads.incrementAndGet();
                        out.write(buf, 0, n);
                    } while ((n = in.read(buf)) > 0);
                }
                case SILENT -> {
                    while (in.read(buf) > 0) { /* never answer */ }
                }
            }
        } catch (IOException ignored) {
            // the client went away
        }
    }

    /** Reads answered so far by ECHO, CORRUPT_SOME, STALL_ONCE and SLOW. */
    int reads() {
        return reads.get();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
