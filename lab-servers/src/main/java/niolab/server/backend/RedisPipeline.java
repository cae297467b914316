package niolab.server.backend;

import static niolab.server.base.Counter.BACKEND_CALLS;
import static niolab.server.base.Counter.BACKEND_ROUND_TRIPS;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import niolab.server.base.BackendConfig;
import niolab.server.base.Counters;
import niolab.server.base.ServerRunner;
import niolab.server.base.WaitTimeout;
import niolab.server.proto.Healthz;
import niolab.server.proto.HttpConnection;

/**
 * {@code --backend-mode loop}: a non-blocking RESP client owned by the event loop. Its socket
 * is one more in the loop's wait ({@link RedisTransport}), so a request waiting for Redis
 * blocks nothing: the loop serves other connections, and the answer is written when the reply
 * comes in.
 *
 * <pre>
 *   call()       the two GETs go into the command buffer, the waiter to the back of the queue: parked
 *   afterWait()  one write sends what every request of this wait's batch queued: natural pipelining
 *   onReady()    replies are read and taken two by two, each pair answering the oldest waiter
 * </pre>
 * Redis answers in order, so a FIFO matches replies to requests. A reply that is malformed, a
 * connection that closes or a reply later than {@code --backend-timeout} ends the connection:
 * its waiters get 503 (504 for lateness) and the client reconnects after the outage's backoff,
 * answering 503 at once meanwhile. Nothing here allocates per request: the replies are parsed
 * where they lie in the read buffer ({@link RespReply}) and the values copied from there into
 * the response ({@link Healthz#write}).
 */
public final class RedisPipeline<W> extends AbstractBackend<W> {
    private static final int DOWN = 0;
    private static final int CONNECTING = 1;
    private static final int UP = 2;
    private static final int BUFFER_BYTES = 64 * 1024;

    // Hot: every call, every reply.
    /** Commands queued and not yet written (write mode). Full means Redis is not reading: 503 at once. */
    private final ByteBuffer commands = ByteBuffer.allocateDirect(BUFFER_BYTES);
    /** Replies read and not yet parsed (write mode). */
    private final ByteBuffer replies = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private final RespReply first = new RespReply();
    private final RespReply second = new RespReply();
    /** The FIFO of waiting requests, a ring: who, which generation of its connection, its deadline. */
    private Object[] waiters = new Object[64];
    private long[] generations = new long[64];
    private long[] deadlines = new long[64];
    private int head;
    private int size;
    private int state = DOWN;
    /** The socket did not take all commands: wait for writability before writing again. */
    private boolean writePending;
    private final long timeoutNanos;

    // Cold: connecting and failing.
    private final RedisTransport transport;
    private final String lateReason;
    private long connectDeadline;

    public RedisPipeline(BackendConfig options, String logName, PrintStream log, Counters counters, Waiters<W> loop,
            RedisTransport transport) {
        super(options, logName, log, counters, loop);
        this.transport = transport;
        this.timeoutNanos = options.timeoutNanos();
        this.lateReason = "no reply within " + options.timeoutMillis() + " ms";
    }

    @Override
    public void start() {
        super.start();
        connect();
    }

    @Override
    public int call(W waiter, HttpConnection http, ByteBuffer out) {
        if (state == DOWN || commands.remaining() < HealthzKeys.GETS.length) {
            return answerNow(http, out, answer.failed(Healthz.Answer.UNAVAILABLE));
        }
        commands.put(HealthzKeys.GETS);
        if (size == waiters.length) grow();
        int tail = (head + size) & (waiters.length - 1);
        waiters[tail] = waiter;
        generations[tail] = http.generation();
        deadlines[tail] = System.nanoTime() + timeoutNanos;
        size++;
        counters.inc(BACKEND_CALLS);
        return PARKED;
    }

    @Override
    public void afterWait() {
        if (state == UP && !writePending && commands.position() > 0) send();
        if (size > 0 || state == CONNECTING) checkDeadlines();
        if (state == DOWN && episode.retryDue()) connect();
    }

    @Override
    public long waitMillis() {
        if (state == DOWN) return episode.waitMillis();
        if (size > 0) return WaitTimeout.until(deadlines[head], 0);
        return state == CONNECTING ? WaitTimeout.until(connectDeadline, 0) : WaitTimeout.NONE;
    }

    /** The loop saw the socket ready. */
    public void onReady(boolean readable, boolean writable) {
        try {
            if (state == CONNECTING) {
                if (!writable || !transport.finishConnect()) return;
                up();
            }
            if (writable && writePending) {
                writePending = false;
                transport.watchWritable(false);
                send();
            }
            if (readable && state == UP) receive();
        } catch (IOException e) {
            lost(Healthz.Answer.UNAVAILABLE, ServerRunner.describe(e));
        }
    }

    @Override
    public void close() {
        transport.close();
        state = DOWN;
    }

    private void connect() {
        try {
            connectDeadline = System.nanoTime() + timeoutNanos;
            state = CONNECTING;
            if (transport.connect(options.address().resolved())) up();
        } catch (IOException e) {
            lost(Healthz.Answer.UNAVAILABLE, ServerRunner.describe(e));
        }
    }

    /** Connected: what the waiters queued meanwhile goes out now. */
    private void up() {
        state = UP;
        if (commands.position() > 0) send();
    }

    /** One write of every command queued: one round trip for all of them. */
    private void send() {
        commands.flip();
        try {
            transport.send(commands);
        } catch (IOException e) {
            commands.compact();
            lost(Healthz.Answer.UNAVAILABLE, ServerRunner.describe(e));
            return;
        }
        counters.inc(BACKEND_ROUND_TRIPS);
        commands.compact();
        if (commands.position() > 0) {
            writePending = true;
            transport.watchWritable(true);
        }
    }

    /** Reads until the socket is drained (a short read: later replies raise a new readiness). */
    private void receive() throws IOException {
        while (true) {
            int space = replies.remaining();
            int n = transport.receive(replies);
            if (n < 0) {
                lost(Healthz.Answer.UNAVAILABLE, "connection closed by redis");
                return;
            }
            if (n == 0 || !answerReplies() || n < space) return;
        }
    }

    /** Takes the replies two by two, answering the oldest waiter with each pair; false if the connection was lost. */
    private boolean answerReplies() {
        replies.flip();
        int at = 0;
        int limit = replies.limit();
        while (true) {
            int r1 = first.read(replies, at, limit);
            if (r1 == RespReply.NEED_MORE) break;
            int r2 = r1 == RespReply.MALFORMED ? r1 : second.read(replies, first.end, limit);
            if (r2 == RespReply.MALFORMED || size == 0) {
                lost(Healthz.Answer.UNAVAILABLE, "malformed reply");
                return false;
            }
            if (r2 == RespReply.NEED_MORE) break;
            at = second.end;
            episode.over();
            answerOldest(r1 == RespReply.ERROR || r2 == RespReply.ERROR ? answer.failed(Healthz.Answer.UNAVAILABLE)
                    : answer.ok(replies, first.start, first.length, second.start, second.length));
        }
        replies.position(at);
        replies.compact(); // a pair not complete yet stays for the next read
        return true;
    }

    private void answerOldest(Healthz.Answer a) {
        @SuppressWarnings("unchecked")
        W waiter = (W) waiters[head];
        long generation = generations[head];
        waiters[head] = null;
        head = (head + 1) & (waiters.length - 1);
        size--;
        answerLater(waiter, generation, a); // may queue this connection's next /healthz: at the back
    }

    private void checkDeadlines() {
        long now = System.nanoTime();
        if (size > 0 && now - deadlines[head] >= 0) {
            lost(Healthz.Answer.TIMEOUT, lateReason);
        } else if (state == CONNECTING && now - connectDeadline >= 0) {
            lost(Healthz.Answer.UNAVAILABLE, "connect timed out");
        }
    }

    /**
     * The connection can no longer be trusted: close it, answer every waiter with {@code status}
     * (their replies, if any still come, could not be matched), and reconnect after the backoff.
     */
    private void lost(int status, String reason) {
        state = DOWN;
        transport.close();
        writePending = false;
        commands.clear();
        replies.clear();
        failed(reason);
        // DOWN first: a waiter's next /healthz, answered on the way, gets 503 at once (and refills `answer`).
        while (size > 0) answerOldest(answer.failed(status));
    }

    /** Twice the room, oldest first: only when more requests wait than ever before. */
    private void grow() {
        int n = waiters.length;
        Object[] w = new Object[2 * n];
        long[] g = new long[2 * n];
        long[] d = new long[2 * n];
        for (int i = 0; i < size; i++) {
            int from = (head + i) & (n - 1);
            w[i] = waiters[from];
            g[i] = generations[from];
            d[i] = deadlines[from];
        }
        waiters = w;
        generations = g;
        deadlines = d;
        head = 0;
    }
}
