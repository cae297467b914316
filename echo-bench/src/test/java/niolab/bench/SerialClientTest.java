package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The serial client's close: a FIN normally, an RST (no TIME-WAIT) under --linger0. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SerialClientTest {
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void linger0ClosesWithAReset(boolean linger0) throws Exception {
        byte[] payload = Payload.random(64, 1);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // echoes one request, then reports how the client's close arrived
            CompletableFuture<String> close = CompletableFuture.supplyAsync(() -> {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    s.getOutputStream().write(in.readNBytes(payload.length));
                    return in.read() < 0 ? "fin" : "data";
                } catch (IOException e) {
                    return String.valueOf(e.getMessage()).contains("reset") ? "rst" : e.toString();
                }
            });
            SerialClient c = new SerialClient(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()),
                    new EchoCodec(payload), 5000, 1, Long.MAX_VALUE, linger0);
            c.run();
            assertThat(c.stats.errorCount).isZero();
            assertThat(close.get(10, TimeUnit.SECONDS)).isEqualTo(linger0 ? "rst" : "fin");
        }
    }
}
