package niolab.server.base;

import static niolab.server.base.Counter.BYTES_IN;
import static niolab.server.base.Counter.LINGER_BYTES;
import static niolab.server.base.Counter.LINGER_CLOSES;
import static niolab.server.base.Counter.LINGER_TIMEOUTS;
import static niolab.server.base.Counter.READS;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The lingering close of RFC 9112 section 9.6 for the servers that block a thread per
 * connection ({@code bio}, {@code vt}); {@link Linger} says why. Here it is a few blocking
 * calls: shut the sending side, then read and drop, each read bounded by the socket timeout
 * that is left of {@code --linger-time}, until end of stream or {@code --linger-bytes}.
 *
 * <pre>
 *   if (closing) { BlockingLinger.linger(socket, buffer, options.lingerTime, options.lingerBytes, counters); return; }
 * </pre>
 */
public final class BlockingLinger {
    private BlockingLinger() {
    }

    /** Shuts {@code s}'s sending side, then reads into {@code buf} and drops it until end of stream or a bound; counts into {@code counted}. */
    public static void linger(Socket s, byte[] buf, Duration time, long maxBytes, Counters counted) throws IOException {
        s.shutdownOutput();
        long deadline = System.nanoTime() + time.toNanos();
        InputStream in = s.getInputStream();
        long dropped = 0;
        counted.inc(LINGER_CLOSES);
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || dropped >= maxBytes) break;
            s.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            int n;
            try {
                n = in.read(buf);
            } catch (SocketTimeoutException timeUp) {
                break;
            }
            counted.inc(READS);
            if (n < 0) return; // the client's end of stream: the linger is over, nothing cut off
            dropped += n;
            counted.add(BYTES_IN, n);
            counted.add(LINGER_BYTES, n);
        }
        counted.inc(LINGER_TIMEOUTS);
    }
}
