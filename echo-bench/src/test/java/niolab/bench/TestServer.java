package niolab.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A thread-per-connection loopback server for echo-bench's tests; a subclass serves each socket. Closing it stops everything. */
abstract class TestServer implements AutoCloseable {
    private final ServerSocket listener;
    private final ExecutorService pool;
    private final java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();

    TestServer(String threadName) throws IOException {
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    }

    /** Starts accepting; a subclass calls it last in its constructor, once its own fields are set. */
    protected final void start() {
        pool.execute(this::acceptLoop);
    }

    /** Talks to one client until done; the socket is closed afterwards. */
    protected abstract void serve(Socket s) throws IOException;

    InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    String hostPort() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                accepted.incrementAndGet();
                pool.execute(() -> {
                    try (s) {
                        serve(s);
                    } catch (IOException ignored) {
                        // the client went away
                    }
                });
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Connections accepted so far. */
    int accepted() {
        return accepted.get();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        pool.shutdownNow();
    }
}
