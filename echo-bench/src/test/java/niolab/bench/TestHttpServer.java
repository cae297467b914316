package niolab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A tiny thread-per-connection HTTP /ping server for echo-bench's tests: it answers every
 * request (a head ending in a blank line) in order, all responses of one read in one write, and
 * closes after a request that says {@code Connection: close}. Its responses differ from the lab
 * servers' on purpose (header case, an extra header) so that the codec is not tuned to one server.
 */
final class TestHttpServer extends TestServer {
    enum Mode { PING, NOT_FOUND, WRONG_BODY }

    private final byte[] response;

    TestHttpServer(Mode mode) throws IOException {
        super("test-http");
        String status = mode == Mode.NOT_FOUND ? "404 Not Found" : "200 OK";
        String body = mode == Mode.WRONG_BODY ? "{\"status\":\"no\"}" : "{\"status\":\"ok\"}";
        this.response = ("HTTP/1.1 " + status + "\r\ncontent-type: application/json\r\nServer: test\r\n"
                + "content-length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
        start();
    }

    @Override
    protected void serve(Socket s) throws IOException {
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
                    close |= head.toString().toLowerCase(Locale.ROOT).contains("connection: close");
                    head.setLength(0);
                }
            }
            byte[] batch = new byte[answers * response.length];
            for (int i = 0; i < answers; i++) System.arraycopy(response, 0, batch, i * response.length, response.length);
            out.write(batch);
            if (close) return;
        }
    }
}
