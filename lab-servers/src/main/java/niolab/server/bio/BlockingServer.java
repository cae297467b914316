package niolab.server.bio;

import static niolab.server.base.Counter.ACCEPTS;
import static niolab.server.base.Counter.ACCEPT_FAILURES;
import static niolab.server.base.Counter.BYTES_IN;
import static niolab.server.base.Counter.BYTES_OUT;
import static niolab.server.base.Counter.CLOSES;
import static niolab.server.base.Counter.IDLE_CLOSES;
import static niolab.server.base.Counter.LIVE;
import static niolab.server.base.Counter.READS;
import static niolab.server.base.Counter.RESETS;
import static niolab.server.base.Counter.WRITES;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import niolab.server.base.AcceptBackoff;
import niolab.server.base.BlockingLinger;
import niolab.server.base.Counter;
import niolab.server.base.BusyWork;
import niolab.server.base.Counters;
import niolab.server.base.NioListener;
import niolab.server.base.Protocol;
import niolab.server.base.Server;
import niolab.server.base.ServerConfig;
import niolab.server.proto.HttpConnection;
import niolab.server.proto.HttpPing;

/**
 * The {@code bio} architecture, the course's first server: no event loop at all. The thread
 * that calls {@link #run} blocks in {@code accept}; each connection gets a platform thread of
 * its own, which serves it with blocking reads and writes from top to bottom. That is the whole
 * design, and its price is the lesson the event loops answer: a thread (a stack, a kernel task,
 * a context switch per wake-up) for every open connection, busy or idle.
 *
 * <pre>
 *   lab-server bio                 # listening on 127.0.0.1:9988 (bio, echo)
 *   lab-server bio --protocol http
 * </pre>
 *
 * <p>What the event loops do by hand comes free or cheap here: backpressure (a write blocks
 * until the peer takes the bytes, and the thread reads nothing meanwhile), {@code --idle-timeout}
 * (the socket's read timeout). An accept failure (EMFILE) pauses accepting for
 * {@link AcceptBackoff#RETRY_MS}, never a spin; a blocking accept cannot tell when the backlog
 * is empty, so an episode ends at the next accept that works.
 *
 * <p>Counters: each connection counts into its own table, on its own thread, with plain
 * increments; the table joins the total when the connection closes. A periodic reading shows
 * the closed connections; the final one, after every thread has finished, is exact.
 */
public final class BlockingServer implements Server {
    private static final String ARCH = "bio";
    private static final String WAIT_NAME = "waits";
    /** After SIGTERM, open connections may finish their exchanges for this long. */
    private static final long DRAIN_GRACE_MS = 2000;
    /** After the drain, closed connections' threads only have to notice the close and count. */
    private static final long CLOSE_GRACE_MS = 2000;

    private final ServerConfig config;
    private final AcceptBackoff acceptBackoff = new AcceptBackoff(ARCH, System.err);
    /** Written by the accepting thread only. */
    private final Counters acceptorCounters = new Counters(WAIT_NAME, LIVE);
    /** What the closed connections counted; guarded by {@code this}, as {@link #open} is. */
    private final Counters closedCounters = new Counters(WAIT_NAME, LIVE);
    /** The open connections, so that a stop can close them. */
    private final Set<Socket> open = new HashSet<>();
    private ServerSocket listener;
    private volatile boolean running = true;

    public BlockingServer(ServerConfig config) {
        this.config = config;
        if (config.protocol() == Protocol.HTTP) acceptorCounters.declare(Counter.LINGER_ROWS);
    }

    @Override
    public InetSocketAddress bind() throws IOException {
        listener = NioListener.open(config).socket(); // java.net's face of the channel: accept() returns a blocking Socket
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    /** Accepts until stopped, then lets open connections finish for a grace period and closes the rest. */
    @Override
    public void run() {
        int started = 0;
        while (running) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (running) pauseAccepting(e); // else stop() closed the listener
                continue;
            }
            acceptBackoff.drained();
            opened(s);
            // BEGIN SOLUTION bio-thread-per-connection
            // STUB: // TODO lab 1: serve each connection on a thread of its own, so that a client that keeps
            // STUB: // its connection open holds up nobody else. Served inline, as here, the server is iterative:
            // STUB: // every other client waits in the backlog until this one has finished.
            // STUB: serve(s);
            Thread t = new Thread(() -> serve(s), ARCH + "-conn-" + ++started);
            t.start();
            // END SOLUTION
        }
        awaitNoConnections(DRAIN_GRACE_MS);
        closeEverything();
    }

    /** Out of descriptors (or another accept failure): sleep out the retry interval, never spin. */
    private void pauseAccepting(IOException e) {
        acceptorCounters.inc(ACCEPT_FAILURES);
        acceptBackoff.pause("accept", e.getMessage());
        try {
            Thread.sleep(acceptBackoff.waitMillis());
        } catch (InterruptedException stopping) {
            stop();
        }
        acceptBackoff.resume();
    }

    /** A connection, from accept to close: the protocol's loop, then the books. */
    private void serve(Socket s) {
        Counters counted = new Counters(WAIT_NAME, LIVE);
        try {
            s.setTcpNoDelay(true);
            if (config.idleTimeout() != null) s.setSoTimeout((int) Math.max(1, config.idleTimeout().toMillis()));
            if (config.protocol() == Protocol.HTTP) {
                answerPings(s, counted);
            } else {
                echo(s, counted);
            }
        } catch (SocketTimeoutException silent) {
            counted.inc(IDLE_CLOSES); // --idle-timeout: nothing came for that long
        } catch (IOException e) {
            if (!s.isClosed()) counted.inc(RESETS); // reset by peer, broken pipe; a socket the stop closed is no fault
        } finally {
            closeQuietly(s);
            closed(s, counted);
        }
    }

    /** Every byte back, in order, until the peer has finished sending. */
    private void echo(Socket s, Counters counted) throws IOException {
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        byte[] buf = new byte[config.bufferSize()];
        BusyWork work = BusyWork.perRead(config, counted);
        int n;
        while ((n = read(in, buf, counted)) > 0) {
            if (work != null) work.request(); // --work-ns: a calibrated cost per request
            write(out, buf, n, counted);
        }
    }

    /** {@code GET /ping}, keep-alive and pipelined: each read's requests answered in one write. */
    private void answerPings(Socket s, Counters counted) throws IOException {
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        byte[] requests = new byte[config.bufferSize()];
        ByteBuffer request = ByteBuffer.wrap(requests);
        ByteBuffer responses = ByteBuffer.allocate(Math.max(config.bufferSize(), HttpPing.MAX_RESPONSE_BYTES));
        HttpConnection conn = new HttpConnection(BusyWork.perRequest(config, counted));
        int n;
        while ((n = read(in, requests, counted)) > 0) {
            request.limit(n).position(0);
            int flags;
            do {
                responses.clear();
                flags = HttpPing.process(request, responses, conn);
                if (responses.position() > 0) write(out, responses.array(), responses.position(), counted);
            } while ((flags & HttpPing.OUT_FULL) != 0);
            if ((flags & HttpPing.CLOSE) != 0) {
                BlockingLinger.linger(s, requests, config.lingerTime(), config.lingerBytes(), counted); // the answer must not be lost to a reset
                return;
            }
        }
    }

    /** One blocking read; -1 at the peer's end of stream. */
    private static int read(InputStream in, byte[] buf, Counters counted) throws IOException {
        int n = in.read(buf);
        counted.inc(READS);
        if (n > 0) counted.add(BYTES_IN, n);
        return n;
    }

    /** Returns once the kernel has taken all {@code n} bytes: a peer that does not read blocks this thread, and only it. */
    private static void write(OutputStream out, byte[] buf, int n, Counters counted) throws IOException {
        out.write(buf, 0, n);
        counted.inc(WRITES);
        counted.add(BYTES_OUT, n);
    }

    private void opened(Socket s) {
        acceptorCounters.inc(ACCEPTS);
        acceptorCounters.inc(LIVE);
        synchronized (this) {
            open.add(s);
        }
    }

    private synchronized void closed(Socket s, Counters counted) {
        counted.inc(CLOSES);
        counted.add(LIVE, -1);
        open.remove(s);
        closedCounters.addAll(counted);
        if (open.isEmpty()) notifyAll();
    }

    /** Waits until every connection has closed, or {@code ms} have passed. */
    private synchronized void awaitNoConnections(long ms) {
        long deadline = System.currentTimeMillis() + ms;
        try {
            for (long left = ms; !open.isEmpty() && left > 0; left = deadline - System.currentTimeMillis()) wait(left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes what the drain left open (each thread then fails its read and counts), and waits for the counts. */
    private void closeEverything() {
        List<Socket> left;
        synchronized (this) {
            left = new ArrayList<>(open);
        }
        for (Socket s : left) closeQuietly(s);
        awaitNoConnections(CLOSE_GRACE_MS);
    }

    /** Closes the listener: the blocked accept ends, and {@link #run} goes on to drain. */
    @Override
    public void stop() {
        running = false;
        closeQuietly(listener);
    }

    @Override
    public Counters counters() {
        Counters sum = new Counters(WAIT_NAME, LIVE);
        sum.addAll(acceptorCounters);
        synchronized (this) {
            sum.addAll(closedCounters);
        }
        return sum;
    }

    @Override
    public String label() {
        return config.label(ARCH);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (Exception ignored) {
            // closing is best effort; there is nothing left to tell the peer
        }
    }
}
