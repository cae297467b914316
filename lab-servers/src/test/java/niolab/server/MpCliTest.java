package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;

class MpCliTest extends ServerCliTest {
    @Override
    protected String arch() {
        return "mp";
    }

    @Override
    protected List<String> baseArgs() {
        return List.of("--workers", "2");
    }

    @Override
    protected String expectedLabel() {
        return "mp: 2 x lt, echo";
    }

    /** The master restarts a worker that fails before it is ready, so the last line, not the only one, says why. */
    @Override
    @Test
    void portInUseIsOneLineAndExitOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            try (ServerProcess p = launch("--port", Integer.toString(port))) {
                assertThat(p.awaitExit(60)).isEqualTo(1);
                String[] lines = p.output().trim().split("\n");
                assertThat(lines[lines.length - 1]).startsWith("error: ")
                        .endsWith("(it said: 127.0.0.1:" + port + " is already in use)");
            }
        }
    }
}
