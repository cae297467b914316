package niolab.server.et;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import niolab.server.ServerOptions;
import niolab.server.testing.Echo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The loop thread allocates nothing per request, once warm: measured by the JVM's per-thread allocation counter. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EtAllocationTest {

    @Test
    void echoesAndShortConnectionsAllocateNothingOnTheLoopThread() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadAllocatedMemorySupported());
        mx.setThreadAllocatedMemoryEnabled(true);

        ServerOptions options = new ServerOptions();
        options.host = "127.0.0.1";
        options.port = 0;
        options.backlog = 128;
        options.bufferSize = 65536;
        EdgeTriggeredEchoServer server = new EdgeTriggeredEchoServer(options);
        InetSocketAddress address = server.bind();
        Thread loop = new Thread(() -> {
            try {
                server.run();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "et-loop");
        loop.start();
        try {
            traffic(address, 3000); // warm up: JIT, first-use class loading, the fd table
            long before = mx.getThreadAllocatedBytes(loop.getId());
            traffic(address, 3000);
            long allocated = mx.getThreadAllocatedBytes(loop.getId()) - before;
            // 3000 echoes and 300 connections: one allocation per request would be tens of KB.
            assertThat(allocated).as("bytes allocated by the loop thread").isLessThan(16 * 1024);
        } finally {
            server.stop();
            loop.join(10_000);
        }
        assertThat(loop.isAlive()).isFalse();
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
