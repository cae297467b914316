package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.base.MultiLoopServer;
import niolab.server.base.ServerConfig;
import niolab.server.lt.LtCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A config stays as parsed: {@code --loops N} makes its loops from derived ones, on SO_REUSEPORT and the port the first bound. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopOptionsTest {
    private static ServerConfig parsed() {
        return LabServer.config("lt", "--host", "127.0.0.1", "--port", "0", "--backlog", "16", "--buffer-size", "4096", "--loops", "2");
    }

    @Test
    void aWitherChangesOnlyWhatItSays() {
        ServerConfig parsed = parsed();
        ServerConfig shared = parsed.withReusePort();
        ServerConfig onPort = shared.withPort(41234);
        assertThat(parsed.reusePort()).isFalse();
        assertThat(parsed.port()).isZero();
        assertThat(shared.reusePort()).isTrue();
        assertThat(shared.port()).isZero();
        assertThat(onPort.reusePort()).isTrue();
        assertThat(onPort.port()).isEqualTo(41234);
        assertThat(onPort).isEqualTo(new ServerConfig(parsed.arch(), parsed.host(), 41234, parsed.backlog(), parsed.bufferSize(),
                parsed.sndbuf(), true, parsed.loops(), parsed.protocol(), parsed.backend(), parsed.statsInterval(),
                parsed.idleTimeout(), parsed.lingerTime(), parsed.lingerBytes(), parsed.mistakeList(), parsed.mistakes(),
                parsed.workNs(), parsed.exitOnStdinEof()));
    }

    @Test
    void theLoopsAreMadeFromDerivedConfigsAndTheParsedOneStaysAsItWas() throws Exception {
        ServerConfig parsed = parsed();
        List<ServerConfig> made = new ArrayList<>();
        LtCommand lt = new LtCommand();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MultiLoopServer server = new MultiLoopServer(o -> {
            made.add(o);
            return lt.newServer(o);
        }, parsed, new PrintStream(out, true, StandardCharsets.UTF_8));
        InetSocketAddress bound = server.bind();
        server.stop();
        server.run(); // stopped before it ran: drains nothing and closes every loop
        assertThat(made).hasSize(2).allSatisfy(o -> assertThat(o.reusePort()).isTrue());
        assertThat(made.get(1).port()).isEqualTo(bound.getPort());
        assertThat(parsed.reusePort()).isFalse();
        assertThat(parsed.port()).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("[loop1] counters:", "[loop2] counters:");
    }
}
