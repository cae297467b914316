package niolab.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Not Redis: a socket that answers SET with {@code +OK} and each GET with a reply that no
 * Redis would send, until told to behave ({@link #behave}): then each GET gets {@code $2 ok}.
 * It counts a command by its name in the bytes it reads, which is all the backend tests need.
 */
public final class FakeRedis implements AutoCloseable {
    private static final byte[] OK = ascii("+OK\r\n");
    private static final byte[] GARBAGE = ascii("!what\r\n");
    private static final byte[] VALUE = ascii("$2\r\nok\r\n");

    private final ServerSocket listener;
    private final List<Socket> connections = new ArrayList<>();
    private volatile boolean garbage = true;

    public FakeRedis() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread t = new Thread(this::acceptLoop, "fake-redis");
        t.setDaemon(true);
        t.start();
    }

    public String uri() {
        return "redis://127.0.0.1:" + listener.getLocalPort();
    }

    /** From now on, GETs get well-formed replies. */
    public void behave() {
        garbage = false;
    }

    private void acceptLoop() {
        try {
            while (true) {
                Socket s = listener.accept();
                synchronized (connections) {
                    connections.add(s);
                }
                Thread t = new Thread(() -> serve(s), "fake-redis-connection");
                t.setDaemon(true);
                t.start();
            }
        } catch (IOException closed) {
            // the test is over
        }
    }

    private void serve(Socket s) {
        byte[] buf = new byte[8192];
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) > 0) {
                String chunk = new String(buf, 0, n, StandardCharsets.US_ASCII);
                for (int i = 0; i < count(chunk, "\r\nSET\r\n"); i++) out.write(OK);
                for (int i = 0; i < count(chunk, "\r\nGET\r\n"); i++) out.write(garbage ? GARBAGE : VALUE);
                out.flush();
            }
        } catch (SocketException closed) {
            // the client went away, or the test is over
        } catch (IOException e) {
            // the same
        }
    }

    private static int count(String s, String word) {
        int n = 0;
        for (int i = s.indexOf(word); i >= 0; i = s.indexOf(word, i + 1)) n++;
        return n;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        listener.close();
        synchronized (connections) {
            for (Socket s : connections) s.close();
        }
    }
}
