package niolab.server.et;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import niolab.server.ServerOptions;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The loop thread allocates nothing per request, once warm: measured by the JVM's per-thread allocation counter. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EtAllocationTest {

    @Test
    void echoesAndShortConnectionsAllocateNothingOnTheLoopThread() throws Exception {
        // 3000 echoes and 300 connections: one allocation per request would be tens of KB.
        assertThat(allocatedByLoop(EdgeTriggeredEchoServer::new, EtAllocationTest::traffic))
                .as("bytes allocated by the loop thread").isLessThan(16 * 1024);
    }

    @Test
    void httpKeepAlivePipelinedAndShortConnectionsAllocateNothingOnTheLoopThread() throws Exception {
        // 3000 requests one by one, 3000 in batches of 16, 300 Connection: close connections.
        assertThat(allocatedByLoop(EdgeTriggeredHttpServer::new, EtAllocationTest::httpTraffic))
                .as("bytes allocated by the loop thread").isLessThan(16 * 1024);
    }

    private interface Traffic {
        void send(InetSocketAddress address, int requests) throws Exception;
    }

    /** Bytes the loop thread allocated during a second round of {@code traffic}, the first one warming up. */
    private static long allocatedByLoop(Function<ServerOptions, EdgeTriggeredServer> make, Traffic traffic) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadAllocatedMemorySupported());
        mx.setThreadAllocatedMemoryEnabled(true);

        ServerOptions options = new ServerOptions();
        options.host = "127.0.0.1";
        options.port = 0;
        options.backlog = 128;
        options.bufferSize = 65536;
        EdgeTriggeredServer server = make.apply(options);
        InetSocketAddress address = server.bind();
        Thread loop = new Thread(() -> {
            try {
                server.run();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "et-loop");
        loop.start();
        long allocated;
        try {
            traffic.send(address, 3000); // warm up: JIT, first-use class loading, the fd table
            long before = mx.getThreadAllocatedBytes(loop.getId());
            traffic.send(address, 3000);
            allocated = mx.getThreadAllocatedBytes(loop.getId()) - before;
        } finally {
            server.stop();
            loop.join(10_000);
        }
        assertThat(loop.isAlive()).isFalse();
        return allocated;
    }

    /** {@code requests} round trips on one connection, pipelined batches of 16, then {@code requests / 10} short connections. */
    private static void httpTraffic(InetSocketAddress address, int requests) throws Exception {
        byte[] one = Http.ascii(Http.get("/ping"));
        byte[] batch = Http.ascii(Http.get("/ping").repeat(16));
        try (Socket s = Echo.connect(address)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (int i = 0; i < requests; i++) {
                out.write(one);
                Http.read(in);
            }
            for (int i = 0; i < requests; i += 16) {
                out.write(batch);
                for (int j = 0; j < 16; j++) Http.read(in);
            }
        }
        byte[] close = Http.ascii("GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n");
        for (int i = 0; i < requests / 10; i++) {
            try (Socket s = Echo.connect(address)) {
                s.getOutputStream().write(close);
                assertThat(Http.read(s.getInputStream()).status()).isEqualTo(200);
            }
        }
    }

    /** {@code echoes} round trips on one connection, then {@code echoes / 10} short connections. */
    private static void traffic(InetSocketAddress address, int echoes) throws Exception {
        byte[] payload = Echo.random(64, 1);
        try (Socket s = Echo.connect(address)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (int i = 0; i < echoes; i++) {
                out.write(payload);
                Echo.readExactly(in, payload.length);
            }
        }
        for (int i = 0; i < echoes / 10; i++) {
            try (Socket s = Echo.connect(address)) {
                s.getOutputStream().write(payload);
                Echo.readExactly(s.getInputStream(), payload.length);
            }
        }
    }
}
