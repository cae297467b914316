package niolab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A tiny thread-per-connection HTTP /ping server for echo-bench's tests: it answers every
 * request (a head ending in a blank line) in order, all responses of one read in one write, and
 * closes after a request that says {@code Connection: close}. Its responses differ from the lab
 * servers' on purpose (header case, an extra header) so that the codec is not tuned to one server.
 */
final class TestHttpServer implements AutoCloseable {
    enum Mode { PING, NOT_FOUND, WRONG_BODY }

    private final ServerSocket listener;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-http");
        t.setDaemon(true);
        return t;
    });
    private final byte[] response;

    TestHttpServer(Mode mode) throws IOException {
        String status = mode == Mode.NOT_FOUND ? "404 Not Found" : "200 OK";
        String body = mode == Mode.WRONG_BODY ? "{\"status\":\"no\"}" : "{\"status\":\"ok\"}";
        this.response = ("HTTP/1.1 " + status + "\r\ncontent-type: application/json\r\nServer: test\r\n"
                + "content-length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        pool.execute(this::acceptLoop);
    }

    String hostPort() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                pool.execute(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[65536];
            StringBuilder head = new StringBuilder();
            int n;
            while ((n = in.read(buf)) > 0) {
                int answers = 0;
                boolean close = false;
                for (int i = 0; i < n; i++) {
                    head.append((char) buf[i]);
                    if (buf[i] == '\n' && head.length() >= 4 && head.lastIndexOf("\r\n\r\n") == head.length() - 4) {
                        answers++;
                        close |= head.toString().toLowerCase().contains("connection: close");
                        head.setLength(0);
                    }
                }
                for (int i = 0; i < answers; i++) out.write(response);
                if (close) return;
            }
        } catch (IOException ignored) {
            // the client went away
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        pool.shutdownNow();
    }
}
