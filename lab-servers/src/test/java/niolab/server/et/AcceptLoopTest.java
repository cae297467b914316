package niolab.server.et;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import niolab.epoll.Bindings;
import niolab.epoll.Epoll;
import niolab.epoll.Errno;
import niolab.epoll.Syscalls;
import niolab.server.LabServer;
import niolab.server.base.Counter;
import niolab.server.testing.Echo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What et's accept loop tells apart, which no real burst shows on demand: an edge whose first
 * accept finds the backlog empty (counted, {@code empty_accepts}) from one that drained it (not
 * counted), an accept that failed for one connection only (EINTR, ECONNABORTED: accept the
 * next at once) from one that failed for all (EMFILE: pause), and an episode of failures from
 * the next (a drained backlog ends one). The server runs in this JVM on
 * the real JNA binding, wrapped so that chosen {@code accept4} calls fail with a chosen errno.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AcceptLoopTest {

    /**
     * A that arrives alone meets a faked EAGAIN: its edge found nothing, one empty accept. It
     * waits in the backlog for the next edge, B's, which accepts both and then finds EAGAIN (not
     * empty: that edge accepted two), and C's edge accepts one (not empty either).
     */
    @Test
    void onlyAnEdgeWhoseFirstAcceptFindsNothingCountsAnEmptyAccept() throws Exception {
        try (Running et = Running.start()) {
            et.failNextAccepts(Errno.EAGAIN);
            try (Socket a = Echo.connect(et.address())) {
                et.awaitAccepts(1);
                try (Socket b = Echo.connect(et.address())) {
                    echoes(a, 1);
                    echoes(b, 2);
                }
                try (Socket c = Echo.connect(et.address())) {
                    echoes(c, 3);
                }
            }
            et.stop();
            assertThat(et.server.counters().get(Counter.ACCEPTS)).as("connections accepted").isEqualTo(3);
            assertThat(et.server.counters().get(Counter.EMPTY_ACCEPTS))
                    .as("empty_accepts: of three edges, the one whose first accept found nothing (not every EAGAIN, not none)").isEqualTo(1);
        }
    }

    /** ECONNABORTED and EINTR lose one connection, or none: the loop accepts on at once, with no pause and no log line. */
    @Test
    void anAcceptThatFailsForOneConnectionOnlyIsRetriedAtOnce() throws Exception {
        try (Running et = Running.start()) {
            et.failNextAccepts(Errno.ECONNABORTED, Errno.EINTR);
            try (Socket a = Echo.connect(et.address())) {
                echoes(a, 1);
            }
            et.stop();
            assertThat(et.server.counters().get(Counter.ACCEPT_FAILURES)).as("accept_failures: pauses after ECONNABORTED or EINTR").isZero();
            assertThat(et.server.counters().get(Counter.ACCEPTS)).as("connections accepted").isEqualTo(1);
        }
    }

    /**
     * An EMFILE pauses accepting and says so once; the retry 100 ms later drains the backlog,
     * which ends the episode (acceptBackoff.drained()), so the next EMFILE is a new episode with
     * a line of its own. Without drained() the second episode would pass unsaid.
     */
    @Test
    void anEpisodeEndsWhenTheBacklogIsDrainedAndTheNextIsLoggedAgain() throws Exception {
        try (Running et = Running.start()) {
            for (int i = 1; i <= 2; i++) {
                et.failNextAccepts(Errno.EMFILE);
                try (Socket s = Echo.connect(et.address())) {
                    echoes(s, i);
                }
            }
            et.stop();
            assertThat(et.server.counters().get(Counter.ACCEPT_FAILURES)).as("accept_failures: one EMFILE per episode").isEqualTo(2);
            assertThat(et.log().split("pausing accepts", -1).length - 1)
                    .as("'pausing accepts' lines for two episodes, each ended by a drained backlog; the server said:%n%s", et.log()).isEqualTo(2);
        }
    }

    /** One echo, in this JVM's loop: 5 s is plenty, where a stranded connection would wait out Echo's 20 s. */
    private static void echoes(Socket s, int seed) throws IOException {
        s.setSoTimeout(5_000);
        byte[] payload = Echo.random(100, seed);
        s.getOutputStream().write(payload);
        assertThat(Echo.readExactly(s.getInputStream(), payload.length)).as("echo of connection %d", seed).isEqualTo(payload);
    }

    /** An et echo server on its own thread, over JNA with scripted accept4 failures. */
    private static final class Running implements AutoCloseable {
        private final Deque<Integer> failures = new ArrayDeque<>();
        private final AtomicInteger accepts = new AtomicInteger();
        /** The errno of the last faked call, for the errno() right after it; 0 once any other call has run. */
        private int faked;
        final EdgeTriggeredEchoServer server;
        private final Thread loop;
        private final InetSocketAddress address;
        private final ByteArrayOutputStream log = new ByteArrayOutputStream();

        private Running() throws IOException {
            Syscalls real = Bindings.jna();
            Syscalls sys = (Syscalls) Proxy.newProxyInstance(Syscalls.class.getClassLoader(), new Class<?>[] {Syscalls.class}, (proxy, m, args) -> {
                if (m.getName().equals("errno") && faked != 0) {
                    int e = faked;
                    faked = 0;
                    return e;
                }
                faked = 0;
                if (m.getName().equals("accept4")) {
                    accepts.incrementAndGet();
                    Integer err;
                    synchronized (failures) {
                        err = failures.poll();
                    }
                    if (err != null) {
                        faked = err;
                        return -1;
                    }
                }
                try {
                    return m.invoke(real, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
            // The loop logs to System.err as it was when it was made: here, to this test.
            PrintStream err = System.err;
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            try {
                server = new EdgeTriggeredEchoServer(LabServer.config("et", "--port", "0"), sys);
            } finally {
                System.setErr(err);
            }
            address = server.bind();
            loop = new Thread(() -> {
                try {
                    server.run();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, "et-loop");
            loop.start();
        }

        static Running start() throws IOException {
            org.junit.jupiter.api.Assumptions.assumeTrue(Epoll.isSupported(), "et needs Linux epoll on a 64-bit JVM");
            return new Running();
        }

        /** What the server logged. */
        String log() {
            synchronized (log) {
                return log.toString(StandardCharsets.UTF_8);
            }
        }

        InetSocketAddress address() {
            return address;
        }

        /** The next accept4 calls fail, one per errno, in order. */
        void failNextAccepts(Integer... errnos) {
            synchronized (failures) {
                failures.addAll(List.of(errnos));
            }
        }

        /** Waits (bounded) until the loop has called accept4 {@code n} times. */
        void awaitAccepts(int n) throws InterruptedException {
            for (int i = 0; i < 1000 && accepts.get() < n; i++) Thread.sleep(10);
            assertThat(accepts.get()).as("accept4 calls the loop made").isGreaterThanOrEqualTo(n);
        }

        void stop() throws InterruptedException {
            server.stop();
            loop.join(10_000);
            assertThat(loop.isAlive()).as("the loop stopped").isFalse();
        }

        @Override
        public void close() throws InterruptedException {
            if (loop.isAlive()) stop();
        }
    }
}
