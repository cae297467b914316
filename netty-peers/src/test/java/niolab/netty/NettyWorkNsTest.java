package niolab.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.common.CountersLine;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --work-ns N} on the Netty peers as on the lab's servers: N ns spun per echo read and
 * per HTTP request (the lab's parser or Netty's codec), counted as {@code work_ns} and said on
 * the ready line. Asserted on the counters, never on a clock.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NettyWorkNsTest {
    private static final long WORK_NS = 50_000;
    private static final int REQUESTS = 16;

    @Test
    void echoSpinsPerRead() throws Exception {
        long workNs = served(List.of("netty-nio", "--protocol", "echo"), s -> {
            byte[] payload = Echo.random(100, 1);
            for (int i = 0; i < REQUESTS; i++) {
                s.getOutputStream().write(payload);
                assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
            }
        });
        assertThat(workNs).isGreaterThanOrEqualTo(REQUESTS * WORK_NS);
    }

    @Test
    void httpSpinsPerRequestWithTheLabsParserAndWithNettysCodec() throws Exception {
        for (List<String> server : List.of(List.of("netty-nio", "--protocol", "http"), List.of("netty-http", "--transport", "nio"))) {
            long workNs = served(server, s -> {
                s.getOutputStream().write(Http.ascii(Http.get("/ping").repeat(REQUESTS)));
                InputStream in = s.getInputStream();
                for (int i = 0; i < REQUESTS; i++) assertThat(Http.read(in).status()).isEqualTo(200);
            });
            assertThat(workNs).as(server.get(0)).isGreaterThanOrEqualTo(REQUESTS * WORK_NS);
        }
    }

    private interface Exchange {
        void on(Socket s) throws Exception;
    }

    /** Runs {@code exchange} on one connection to the server {@code command} starts with --work-ns, stops it; its work_ns. */
    private static long served(List<String> command, Exchange exchange) throws Exception {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--work-ns", Long.toString(WORK_NS))); // ServerProcess adds --port 0
        try (ServerProcess p = ServerProcess.start(args.toArray(new String[0]))) {
            assertThat(p.label()).endsWith(", work-ns " + WORK_NS);
            try (Socket s = Echo.connect(p.address())) {
                exchange.on(s);
            }
            assertThat(p.terminate(30)).isZero();
            Long workNs = CountersLine.parse(CountersLine.last(p.output())).get("work_ns");
            assertThat(workNs).as(p.output()).isNotNull();
            return workNs;
        }
    }
}
