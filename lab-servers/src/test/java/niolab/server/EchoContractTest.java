package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import niolab.server.testing.Echo;
import org.junit.jupiter.api.Test;

/**
 * The echo contract every architecture keeps, written once; each architecture runs it through
 * a subclass that says how to start its server (as Netty's SocketEchoTest serves each transport).
 */
public abstract class EchoContractTest extends ServerContractTest {
    @Test
    void randomPayloadsFromOneByteToOneMebibyteComeBackExactly() throws Exception {
        SplittableRandom r = new SplittableRandom(42);
        List<Integer> sizes = new ArrayList<>(List.of(1, 2, 63, 64, 65, 4096, 65535, 65536, 65537, 1 << 20));
        for (int i = 0; i < 10; i++) sizes.add(1 + r.nextInt(1 << 20));
        for (int size : sizes) {
            byte[] payload = Echo.random(size, size);
            byte[] echo = Echo.roundTrip(address, payload, 1 + r.nextInt(70_000), size);
            assertThat(echo).as("echo of %d bytes", size).isEqualTo(payload);
        }
    }

    @Test
    void fiveHundredSerialShortConnections() throws Exception {
        byte[] payload = Echo.random(64, 7);
        for (int i = 0; i < 500; i++) {
            try (Socket s = Echo.connect(address)) {
                s.getOutputStream().write(payload);
                assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
            }
        }
    }

    @Test
    void sixtyFourConcurrentConnectionsEachEchoQuarterMebibyteInRandomChunks() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(64);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int c = 0; c < 64; c++) {
                final int seed = c;
                results.add(pool.submit(() -> {
                    byte[] payload = Echo.random(256 * 1024, seed);
                    return Echo.same(payload, Echo.roundTrip(address, payload, 8192, seed));
                }));
            }
            for (Future<Boolean> f : results) assertThat(f.get(90, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void halfClosedClientGetsItsFullEchoThenTheServerCloses() throws Exception {
        byte[] payload = Echo.random(300_000, 3);
        try (Socket s = Echo.connect(address)) {
            CompletableFuture<Void> writer = Echo.writeAsync(s, payload, 50_000, 3)
                    .thenRun(() -> {
                        try {
                            s.shutdownOutput();
                        } catch (Exception e) {
                            throw new RuntimeException(e);
                        }
                    });
            byte[] echo = Echo.readToEnd(s.getInputStream()); // ends only when the server closes
            Echo.await(writer);
            assertThat(echo).isEqualTo(payload);
        }
    }

    @Test
    void clientThatResetsDisturbsNoOtherConnection() throws Exception {
        try (Socket steady = Echo.connect(address)) {
            OutputStream out = steady.getOutputStream();
            InputStream in = steady.getInputStream();
            byte[] first = Echo.random(1000, 11);
            out.write(first);
            assertThat(Echo.readExactly(in, first.length)).isEqualTo(first);

            for (int i = 0; i < 20; i++) {
                Socket rude = Echo.connect(address);
                rude.getOutputStream().write(Echo.random(200_000, i)); // echo still in flight when we reset
                rude.setSoLinger(true, 0);
                rude.close(); // RST
            }

            byte[] second = Echo.random(5000, 12);
            out.write(second);
            assertThat(Echo.readExactly(in, second.length)).isEqualTo(second);
        }
        byte[] fresh = Echo.random(100, 13);
        assertThat(Echo.roundTrip(address, fresh, 100, 13)).isEqualTo(fresh);
    }

    @Test
    void aConnectionThatStaysOpenAndSilentHoldsUpNobody() throws Exception {
        try (Socket silent = Echo.connect(address)) {
            // A server that serves one connection at a time is stuck reading from the silent one:
            // this echo waits in its backlog until the socket timeout fails it.
            byte[] payload = Echo.random(100, 21);
            assertThat(Echo.roundTrip(address, payload, 100, 21)).isEqualTo(payload);
        }
    }

    @Test
    void connectAndCloseWithoutSendingIsHarmless() throws Exception {
        for (int i = 0; i < 50; i++) {
            Echo.connect(address).close();
        }
        byte[] payload = Echo.random(1234, 5);
        assertThat(Echo.roundTrip(address, payload, 1234, 5)).isEqualTo(payload);
    }
}
