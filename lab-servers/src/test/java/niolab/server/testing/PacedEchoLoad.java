package niolab.server.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Many echo connections driven by a few non-blocking client threads: each connection writes its
 * bytes in chunks of random size (1 byte to 1 MiB, log-uniform so small and large are both
 * common), half-closes, and reads its echo in random small amounts at a random pace (pausing
 * now and then), so the server meets partial writes and backpressure. Every byte read is
 * checked against what was sent at that position, and end-of-stream must come exactly after
 * the last byte.
 *
 * <p>The bytes are a prime-length random block repeated from a per-connection offset: checking
 * costs a vectorized array compare rather than a copy of everything sent, and a byte that is
 * lost, repeated, reordered or crossed with another connection's shows up as a mismatch.
 */
public final class PacedEchoLoad {
    private static final int BLOCK = 1_048_583; // a prime just above 1 MiB
    private static final int MAX_CHUNK = 1 << 20;
    private static final byte[] PATTERN = twice(Echo.random(BLOCK, 1));

    private PacedEchoLoad() {
    }

    /**
     * Runs {@code connections} connections of {@code bytesEach} bytes over {@code threads}
     * threads; returns the bytes echoed and checked. Throws on any error or after {@code timeoutS}.
     */
    public static long run(InetSocketAddress address, int connections, long bytesEach, int threads, long timeoutS)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Long>> parts = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
            for (int t = 0; t < threads; t++) {
                int first = t * connections / threads;
                int last = (t + 1) * connections / threads;
                parts.add(pool.submit(() -> drive(address, first, last, bytesEach, deadline)));
            }
            long total = 0;
            for (Future<Long> f : parts) total += f.get(timeoutS + 10, TimeUnit.SECONDS);
            return total;
        } finally {
            pool.shutdownNow();
        }
    }

    private static long drive(InetSocketAddress address, int first, int last, long bytesEach, long deadline)
            throws IOException {
        List<Conn> conns = new ArrayList<>();
        try (Selector selector = Selector.open()) {
            for (int id = first; id < last; id++) conns.add(new Conn(id, address, bytesEach, selector));
            ByteBuffer in = ByteBuffer.allocate(64 * 1024);
            int open = conns.size();
            while (open > 0) {
                if (System.nanoTime() - deadline > 0) throw new AssertionError("echo load unfinished: " + progress(conns));
                long now = System.nanoTime();
                for (Conn c : conns) c.arm(now);
                selector.select(2);
                for (SelectionKey k : selector.selectedKeys()) {
                    Conn c = (Conn) k.attachment();
                    if (k.isValid() && k.isWritable()) c.write();
                    if (k.isValid() && k.isReadable() && c.read(in)) open--;
                }
                selector.selectedKeys().clear();
            }
        } finally {
            for (Conn c : conns) c.ch.close();
        }
        return (last - first) * bytesEach;
    }

    private static String progress(List<Conn> conns) {
        StringBuilder b = new StringBuilder();
        for (Conn c : conns) {
            if (!c.done) b.append(String.format("%n  #%d sent %d received %d of %d", c.id, c.sent, c.received, c.total));
        }
        return b.toString();
    }

    private static final class Conn {
        final int id;
        final SocketChannel ch;
        final SelectionKey key;
        final long total;
        final int offset;
        final SplittableRandom random;
        /** Reads at most this much at a time: some connections sip, some gulp. */
        final int readSize;
        long sent;
        long received;
        int chunkLeft;
        long resumeReadAt;
        boolean done;

        Conn(int id, InetSocketAddress address, long total, Selector selector) throws IOException {
            this.id = id;
            this.total = total;
            this.random = new SplittableRandom(id);
            this.offset = random.nextInt(BLOCK);
            this.readSize = id % 4 == 0 ? 4096 : 64 * 1024;
            ch = SocketChannel.open();
            ch.setOption(StandardSocketOptions.SO_RCVBUF, id % 4 == 0 ? 8 * 1024 : 128 * 1024);
            ch.connect(address);
            ch.configureBlocking(false);
            key = ch.register(selector, 0, this);
        }

        void arm(long now) {
            if (done) return;
            int ops = sent < total ? SelectionKey.OP_WRITE : 0;
            if (now - resumeReadAt >= 0) ops |= SelectionKey.OP_READ;
            if (key.interestOps() != ops) key.interestOps(ops);
        }

        void write() throws IOException {
            if (chunkLeft == 0) chunkLeft = (int) Math.min(total - sent, logUniform(random, MAX_CHUNK));
            int start = (int) ((sent + offset) % BLOCK);
            int w = ch.write(ByteBuffer.wrap(PATTERN, start, chunkLeft));
            sent += w;
            chunkLeft -= w;
            if (sent == total) ch.shutdownOutput();
        }

        /** Reads and checks one helping; true when the echo is complete and the server has closed. */
        boolean read(ByteBuffer in) throws IOException {
            in.clear().limit(1 + random.nextInt(readSize));
            int n = ch.read(in);
            if (n < 0) {
                if (received != total) throw new AssertionError("#" + id + ": the server closed after " + received + " of " + total + " bytes");
                done = true;
                key.cancel();
                return true;
            }
            int start = (int) ((received + offset) % BLOCK);
            int bad = Arrays.mismatch(in.array(), 0, n, PATTERN, start, start + n);
            if (bad >= 0) throw new AssertionError("#" + id + ": wrong byte at " + (received + bad) + " of " + total);
            received += n;
            if (received > total) throw new AssertionError("#" + id + ": more bytes back than sent");
            if (random.nextInt(4) == 0) resumeReadAt = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(random.nextInt(1, 20_000));
            return false;
        }
    }

    /** 1 to {@code max}, log-uniform: as many chunks under 1 KiB as between 512 KiB and 1 MiB. */
    static int logUniform(SplittableRandom r, int max) {
        return (int) Math.max(1, Math.min(max, Math.round(Math.exp(r.nextDouble() * Math.log(max)))));
    }

    private static byte[] twice(byte[] block) {
        byte[] b = Arrays.copyOf(block, 2 * block.length);
        System.arraycopy(block, 0, b, block.length, block.length);
        return b;
    }
}
