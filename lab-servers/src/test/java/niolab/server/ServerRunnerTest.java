package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import niolab.server.base.Counters;
import niolab.server.base.Server;
import niolab.server.base.ServerConfig;
import niolab.server.base.ServerRunner;
import org.junit.jupiter.api.Test;

/** A server that cannot listen says why in one line, naming the port its bind was on. */
class ServerRunnerTest {
    /** Binds a first listener (port 0 resolves to 41234), then fails as a second bind would. */
    private static final class FailsOnItsSecondBind implements Server {
        private final IOException failure;

        FailsOnItsSecondBind(IOException failure) {
            this.failure = failure;
        }

        @Override
        public InetSocketAddress bind() throws IOException {
            throw new ServerRunner.BindFailedOn(41234, failure);
        }

        @Override
        public void run() {
            throw new AssertionError("a server that could not listen is not run");
        }

        @Override
        public void stop() {
        }

        @Override
        public Counters counters() {
            return new Counters("selects");
        }

        @Override
        public String label() {
            return "test";
        }
    }

    private static String failure(IOException e) {
        ServerConfig config = LabServer.config("lt", "--host", "127.0.0.1", "--port", "0");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ServerRunner.run(new FailsOnItsSecondBind(e), config, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).as("no ready line, no counters").isEmpty();
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aPortInUseNamesThePortTheFailedBindWasOnNotPortZero() {
        assertThat(failure(new BindException("Address already in use"))).isEqualTo("error: 127.0.0.1:41234 is already in use\n");
    }

    @Test
    void otherBindFailuresAreOneLineToo() {
        assertThat(failure(new BindException("Permission denied")))
                .isEqualTo("error: permission denied binding 127.0.0.1:41234 (ports below 1024 need root)\n");
        assertThat(failure(new IOException("Too many open files"))).isEqualTo("error: cannot listen on 127.0.0.1:41234: Too many open files\n");
    }
}
