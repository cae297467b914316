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
import niolab.server.base.Protocol;
import niolab.server.base.ServerOptions;
import niolab.server.lt.LtCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Options stay as parsed: {@code --loops N} makes its loops from copies, on SO_REUSEPORT and the port the first bound. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopOptionsTest {
    private static ServerOptions parsedFor(String arch) {
        ServerOptions o = ServerOptions.forWorker(arch);
        o.host = "127.0.0.1";
        o.port = 0;
        o.backlog = 16;
        o.bufferSize = 4096;
        o.loops = 2;
        o.protocol = Protocol.ECHO;
        return o;
    }

    @Test
    void aCopyChangesOnlyWhatItSays() {
        ServerOptions parsed = parsedFor("lt");
        ServerOptions shared = parsed.withReusePort();
        ServerOptions onPort = shared.withPort(41234);
        assertThat(parsed.reusePort).isFalse();
        assertThat(parsed.port).isZero();
        assertThat(shared.reusePort).isTrue();
        assertThat(shared.port).isZero();
        assertThat(onPort.reusePort).isTrue();
        assertThat(onPort.port).isEqualTo(41234);
        assertThat(onPort.bufferSize).isEqualTo(parsed.bufferSize);
        assertThat(onPort.mistakes()).isSameAs(parsed.mistakes());
    }

    @Test
    void theLoopsAreMadeFromCopiesAndTheParsedOptionsStayAsTheyWere() throws Exception {
        ServerOptions parsed = parsedFor("lt");
        List<ServerOptions> made = new ArrayList<>();
        LtCommand lt = LtCommand.of(parsed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MultiLoopServer server = new MultiLoopServer(o -> {
            made.add(o);
            return lt.newServer(o);
        }, parsed, new PrintStream(out, true, StandardCharsets.UTF_8));
        InetSocketAddress bound = server.bind();
        server.stop();
        server.run(); // stopped before it ran: drains nothing and closes every loop
        assertThat(made).hasSize(2).allSatisfy(o -> assertThat(o).isNotSameAs(parsed).extracting(x -> x.reusePort).isEqualTo(true));
        assertThat(made.get(1).port).isEqualTo(bound.getPort());
        assertThat(parsed.reusePort).isFalse();
        assertThat(parsed.port).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("[loop1] counters:", "[loop2] counters:");
    }
}
