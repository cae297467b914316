package niolab.server.proto;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** Drives {@link HttpPing#process} the way an event loop does, without sockets. */
final class PingDriver {
    static final String OK_BODY = "{\"status\":\"ok\"}";
    static final String OK = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n" + OK_BODY;
    static final String OK_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n";
    static final String OK_CLOSE = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\nConnection: close\r\n\r\n" + OK_BODY;
    static final String OK_KEEP = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\nConnection: keep-alive\r\n\r\n" + OK_BODY;
    static final String NOT_FOUND = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
    static final String NOT_ALLOWED = "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Length: 0\r\n\r\n";
    static final String BAD = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    static final String TOO_LARGE = "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

    /** What the connection produced, and whether the server closed it. */
    record Result(String output, boolean closed) {
    }

    private PingDriver() {
    }

    static Result run(String input) {
        return run(input.getBytes(StandardCharsets.ISO_8859_1), new int[] {input.length()}, 65536);
    }

    /** Feeds {@code input} in reads of the given sizes, with an output buffer of {@code outCapacity}. */
    static Result run(byte[] input, int[] readSizes, int outCapacity) {
        HttpConnection conn = new HttpConnection();
        ByteBuffer out = ByteBuffer.allocateDirect(outCapacity);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        int off = 0;
        for (int size : readSizes) {
            ByteBuffer in = ByteBuffer.allocateDirect(size);
            in.put(input, off, size).flip();
            off += size;
            int flags;
            do {
                out.clear();
                flags = HttpPing.process(in, out, conn);
                out.flip();
                byte[] b = new byte[out.remaining()];
                out.get(b);
                written.writeBytes(b);
            } while ((flags & HttpPing.OUT_FULL) != 0);
            if (in.hasRemaining()) throw new AssertionError("process left input unread without OUT_FULL");
            if ((flags & HttpPing.CLOSE) != 0) return new Result(written.toString(StandardCharsets.ISO_8859_1), true);
        }
        return new Result(written.toString(StandardCharsets.ISO_8859_1), false);
    }

    /** Random read sizes that add up to {@code total}, from single bytes to the whole input. */
    static int[] randomSplits(int total, SplittableRandom r) {
        int mode = r.nextInt(3);
        int[] sizes = new int[Math.max(1, total)];
        int n = 0;
        int left = total;
        while (left > 0) {
            int size = mode == 0 ? 1 : mode == 1 ? 1 + r.nextInt(Math.min(left, 16)) : 1 + r.nextInt(left);
            sizes[n++] = size;
            left -= size;
        }
        return java.util.Arrays.copyOf(sizes, n);
    }
}
