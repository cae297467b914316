package niolab.server.et;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import niolab.server.testing.Proc;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What only edge-triggered epoll gets wrong: bursts left in the backlog, bytes left in a socket,
 * a FIN reported with the data. Each test starts its own server and reads the counters it
 * prints when stopped. What every architecture must survive (a client that never reads, resets,
 * descriptors that run out...) is in {@link niolab.server.FaultContractTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EdgeTriggeredEchoServerTest {

    @Test
    void aThousandConnectionsOpenedAtOnceAreAllAcceptedAndServed() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try (ServerProcess p = ServerProcess.start("et")) {
            try {
                for (int i = 0; i < 1000; i++) sockets.add(Echo.connect(p.address())); // all wait in the backlog
                for (int i = 0; i < sockets.size(); i++) sockets.get(i).getOutputStream().write(Echo.random(100, i));
                for (int i = 0; i < sockets.size(); i++) {
                    assertThat(Echo.readExactly(sockets.get(i).getInputStream(), 100)).isEqualTo(Echo.random(100, i));
                }
            } finally {
                for (Socket s : sockets) s.close();
            }
            assertThat(p.terminate(20)).isZero();
            assertThat(Proc.counter(p, "accepts")).isEqualTo(1000);
            assertThat(Proc.counter(p, "bytes_out")).isEqualTo(100_000);
        }
    }

    @Test
    void sixteenMebibytesToASlowReaderComeBackExactlyThroughPartialWrites() throws Exception {
        byte[] payload = Echo.random(16 << 20, 16);
        try (ServerProcess p = ServerProcess.start("et")) {
            try (Socket s = Echo.slowReader(p.address())) {
                CompletableFuture<Void> writer = Echo.writeAsync(s, payload, 256 * 1024, 16);
                byte[] echo = readSlowly(s.getInputStream(), payload.length);
                Echo.await(writer);
                assertThat(Echo.same(echo, payload)).as("16 MiB echoed exactly").isTrue();
            }
            assertThat(p.terminate(20)).isZero();
            assertThat(Proc.counter(p, "bytes_in")).isEqualTo(payload.length);
            assertThat(Proc.counter(p, "bytes_out")).isEqualTo(payload.length);
            assertThat(Proc.counter(p, "partial_writes")).as("the send buffer filled up: " + p.output()).isPositive();
        }
    }

    @Test
    void dataAndFinInOneEdgeStillGetTheirEchoAndAClose() throws Exception {
        // Writing then half-closing at once often lands both in one epoll event: the server
        // must not take its short read as "drained", or it never sees the FIN again.
        try (ServerProcess p = ServerProcess.start("et")) {
            for (int i = 0; i < 200; i++) {
                try (Socket s = Echo.connect(p.address())) {
                    byte[] payload = Echo.random(1 + i, i);
                    s.getOutputStream().write(payload);
                    s.shutdownOutput();
                    assertThat(Echo.readToEnd(s.getInputStream())).isEqualTo(payload);
                }
            }
            assertThat(p.terminate(20)).isZero();
            assertThat(Proc.counter(p, "closes")).isEqualTo(200);
        }
    }



    private static byte[] readSlowly(InputStream in, int n) throws Exception {
        byte[] b = new byte[n];
        int got = 0;
        for (int reads = 0; got < n; reads++) {
            int r = in.read(b, got, Math.min(4096, n - got));
            if (r < 0) throw new IOException("stream ended after " + got + " of " + n + " bytes");
            got += r;
            if (reads % 64 == 0) Thread.sleep(1);
        }
        return b;
    }
}
