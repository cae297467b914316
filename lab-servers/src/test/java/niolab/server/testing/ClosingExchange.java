package niolab.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One exchange whose answer closes the connection, seen from the client: a request (a head too
 * large, garbage followed by bulk) sent in one write, read after the write has completed or
 * while it goes on, and what reached the client: the whole answer then end of stream (the
 * lingering close of RFC 9112 9.6), or a reset that ate the answer.
 *
 * <pre>
 *   ClosingExchange.Result r = ClosingExchange.run(address, ClosingExchange.oversizeHead(300_000), false);
 *   r.outcome() == Outcome.ANSWER_THEN_EOF &amp;&amp; r.status() == 431
 * </pre>
 */
public final class ClosingExchange {
    /** What the client saw. */
    public enum Outcome {
        /** The whole answer, then end of stream: what the lab's servers do. */
        ANSWER_THEN_EOF,
        /** The whole answer, then a reset instead of end of stream. */
        ANSWER_THEN_RESET,
        /** A reset before the whole answer: the server closed on unread bytes, and the client's kernel dropped its answer. */
        RESET_BEFORE_ANSWER,
        /** End of stream before any answer. */
        EOF_BEFORE_ANSWER,
        /** Bytes after the answer, where end of stream should be. */
        MORE_AFTER_ANSWER,
        /** Nothing for the whole timeout. */
        TIMEOUT
    }

    /** The outcome, the status if an answer came (else 0), and the writer's fate (null: it wrote everything). */
    public record Result(Outcome outcome, int status, String writer) {
        @Override
        public String toString() {
            return outcome + (status > 0 ? " " + status : "") + (writer == null ? "" : ", writer: " + writer);
        }
    }

    private ClosingExchange() {
    }

    /** {@code GET /ping} whose head is {@code size} bytes in all, over the 8 KiB limit: answered 431. */
    public static byte[] oversizeHead(int size) {
        String start = "GET /ping HTTP/1.1\r\nX-Big: ";
        String end = "\r\n\r\n";
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) 'a');
        System.arraycopy(start.getBytes(StandardCharsets.US_ASCII), 0, b, 0, start.length());
        System.arraycopy(end.getBytes(StandardCharsets.US_ASCII), 0, b, size - end.length(), end.length());
        return b;
    }

    /** A malformed request line, then {@code bulk} bytes that are no request: answered 400. */
    public static byte[] garbageThen(int bulk) {
        byte[] bad = "G@RBAGE / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] b = Arrays.copyOf(bad, bad.length + bulk);
        Arrays.fill(b, bad.length, b.length, (byte) 'z');
        return b;
    }

    /**
     * Connects, writes {@code request} in one write on another thread, reads the answer (after
     * the write has completed, or {@code concurrently} with it), then one more read, and closes.
     * Every wait is bounded ({@link Echo#TIMEOUT_MS}).
     */
    public static Result run(InetSocketAddress address, byte[] request, boolean concurrently) throws IOException, InterruptedException {
        try (Socket s = Echo.connect(address)) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    out.write(request);
                    out.flush();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, r -> {
                Thread t = new Thread(r, "closing-exchange-writer");
                t.setDaemon(true);
                t.start();
            });
            String writerFate = concurrently ? null : awaitWriter(writer);
            Result r = read(s.getInputStream());
            if (concurrently) writerFate = awaitWriter(writer);
            return new Result(r.outcome, r.status, writerFate);
        }
    }

    /** Null if the writer wrote everything; else what stopped it. */
    private static String awaitWriter(CompletableFuture<Void> writer) throws InterruptedException {
        try {
            writer.get(Echo.TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause().getCause() != null ? e.getCause().getCause() : e.getCause();
            return cause.getMessage();
        } catch (TimeoutException e) {
            return "still writing after " + Echo.TIMEOUT_MS + " ms";
        }
    }

    /** Reads one answer, then one more read: what the client saw (the writer's fate is not known here). */
    public static Result read(InputStream in) {
        Http.Response answer;
        try {
            answer = Http.read(in);
        } catch (SocketTimeoutException e) {
            return new Result(Outcome.TIMEOUT, 0, null);
        } catch (SocketException e) {
            return new Result(Outcome.RESET_BEFORE_ANSWER, 0, null);
        } catch (IOException e) {
            return new Result(Outcome.EOF_BEFORE_ANSWER, 0, null);
        }
        try {
            return new Result(in.read() < 0 ? Outcome.ANSWER_THEN_EOF : Outcome.MORE_AFTER_ANSWER, answer.status(), null);
        } catch (SocketTimeoutException e) {
            return new Result(Outcome.TIMEOUT, answer.status(), null);
        } catch (IOException e) {
            return new Result(Outcome.ANSWER_THEN_RESET, answer.status(), null);
        }
    }
}
