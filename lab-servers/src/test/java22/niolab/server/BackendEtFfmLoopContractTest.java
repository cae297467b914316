package niolab.server;

import static niolab.server.testing.Http.ascii;
import static niolab.server.testing.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.util.List;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.ServerProcess;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;
import org.junit.jupiter.api.Test;

/** The loop posture on et's FFM binding: the Redis socket's calls go through the loop's own binding. */
@Extended
class BackendEtFfmLoopContractTest extends BackendContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et", "--binding", "ffm", "--backend-mode", "loop");
    }

    @Test
    void healthzOnTheFfmBindingLoadsNoJnaClass() throws Exception {
        try (ServerProcess p = ServerProcess.startWithJvmOptions(List.of("-Xlog:class+load=info"),
                "et", "--binding", "ffm", "--protocol", "http", "--backend", redis.uri(), "--backend-mode", "loop")) {
            try (Socket s = Echo.connect(p.address())) {
                s.getOutputStream().write(ascii(get("/healthz")));
                assertSeeded(Http.read(s.getInputStream()));
            }
            assertThat(p.terminate(15)).isZero(); // every line it printed is read
            assertThat(p.linesContaining("niolab.server.backend.EpollRedisTransport")).as("the class-loading log").isPositive();
            assertThat(p.linesContaining("com.sun.jna")).as("JNA classes loaded").isZero();
        }
    }
}
