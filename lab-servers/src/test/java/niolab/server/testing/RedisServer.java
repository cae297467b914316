package niolab.server.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import niolab.testkit.Capability;
import redis.clients.jedis.Jedis;

/**
 * A real {@code redis-server} for the backend tests, on a free port, with nothing saved: started
 * by the test, stopped after ({@link #close}), and stoppable, restartable (same port, empty) and
 * pausable (SIGSTOP) in between. Tests skip with a clear reason where the binary is missing.
 */
public final class RedisServer implements AutoCloseable {
    private static final String BINARY = "redis-server";
    private static final long READY_TIMEOUT_MS = 10_000;

    public final int port;
    private Process process;

    private RedisServer(int port) {
        this.port = port;
    }

    /** Skips the calling test unless redis-server is on the PATH. */
    public static void assumeInstalled() {
        Capability.REDIS_SERVER.assume();
    }

    /** Starts one on a free port and waits until it answers PING. */
    public static RedisServer start() throws IOException, InterruptedException {
        assumeInstalled();
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        RedisServer r = new RedisServer(port);
        r.restart();
        return r;
    }

    /** {@code redis://127.0.0.1:PORT}, as --backend takes it. */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** (Re)starts it on its port, empty, and waits until it answers PING. */
    public void restart() throws IOException, InterruptedException {
        process = new ProcessBuilder(BINARY, "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--loglevel", "warning").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        while (true) {
            try (Jedis j = client()) {
                if ("PONG".equals(j.ping())) return;
            } catch (RuntimeException notYet) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    close();
                    throw new IllegalStateException("redis-server did not start on port " + port, notYet);
                }
                Thread.sleep(50);
            }
        }
    }

    /** A client to look at or change the data; the caller closes it. */
    public Jedis client() {
        return new Jedis("127.0.0.1", port, 2000);
    }

    /** Stops it (SIGTERM; SIGKILL if it lingers): connections are closed, the port refuses. */
    public void stop() throws InterruptedException {
        if (process == null) return;
        try {
            resume(); // a stopped process would hold SIGTERM until continued
        } catch (IOException e) {
            process.destroyForcibly();
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        process = null;
    }

    /** SIGSTOP: the kernel still accepts connections and takes the bytes, nothing answers. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT. */
    public void resume() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) throw new IOException("kill -" + name + " failed");
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
