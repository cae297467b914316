package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.common.CountersLine;
import niolab.server.base.Counter;
import niolab.server.base.Server;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.ServerProcess;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --work-ns N}: every lab server spins N ns per request (echo: per read that returns
 * bytes; HTTP: per request, a pipelined batch included), counts what it spun as {@code work_ns},
 * and says so on its ready line; without the option there is neither row nor label. Asserted on
 * the counters, never on a clock: the spin ends only once N ns have passed, so the row holds at
 * least N per request whatever the machine's load.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkNsTest {
    private static final long WORK_NS = 50_000;
    private static final int ROUND_TRIPS = 20;
    private static final int BATCH = 16;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lt", "lt --loops 2", "et", "bio", "vt", "uring"})
    void echoSpinsPerReadThatBringsBytes(String arch) throws Exception {
        Server server = start(arch, "--protocol", "echo", "--work-ns", Long.toString(WORK_NS));
        assertThat(server.label()).endsWith(", work-ns " + WORK_NS);
        InetSocketAddress address = server.bind();
        long reads = run(server, () -> {
            byte[] payload = Echo.random(100, 1);
            try (Socket s = Echo.connect(address)) {
                for (int i = 0; i < ROUND_TRIPS; i++) {
                    s.getOutputStream().write(payload);
                    assertThat(Echo.readExactly(s.getInputStream(), payload.length)).isEqualTo(payload);
                }
            }
        });
        // each round trip needs at least one read that returns bytes, and each such read spins
        assertThat(server.counters().get(Counter.WORK_NS)).isGreaterThanOrEqualTo(ROUND_TRIPS * WORK_NS);
        assertThat(reads).isGreaterThanOrEqualTo(ROUND_TRIPS);
        assertThat(server.counters().format()).contains(" work_ns=");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lt", "et", "bio", "vt", "uring"})
    void httpSpinsPerRequestEvenWhenABatchComesInOneRead(String arch) throws Exception {
        Server server = start(arch, "--protocol", "http", "--work-ns", Long.toString(WORK_NS));
        InetSocketAddress address = server.bind();
        run(server, () -> {
            try (Socket s = Echo.connect(address)) {
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                out.write(Http.ascii(Http.get("/ping").repeat(BATCH))); // one write: most likely one read
                for (int i = 0; i < BATCH; i++) assertThat(Http.read(in).status()).isEqualTo(200);
            }
        });
        assertThat(server.counters().get(Counter.WORK_NS)).isGreaterThanOrEqualTo(BATCH * WORK_NS);
    }

    @Test
    void withoutTheOptionNothingIsSpunOrSaid() throws Exception {
        Server server = start("lt", "--protocol", "echo");
        assertThat(server.label()).doesNotContain("work-ns");
        InetSocketAddress address = server.bind();
        run(server, () -> {
            byte[] payload = Echo.random(100, 2);
            assertThat(Echo.roundTrip(address, payload, 100, 2)).isEqualTo(payload);
        });
        assertThat(server.counters().get(Counter.WORK_NS)).isZero();
        assertThat(server.counters().format()).doesNotContain("work_ns");
    }

    @Test
    void aBadValueIsABadFlag() throws Exception {
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of("lt", "--port", "0", "--work-ns", "-1"));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("--work-ns must be between 0 and 1000000000, not -1");
    }

    /**
     * mp's workers get the option from the argv the master hands them, which WorkerMain never
     * reads option by option: their ready lines and their counters show it.
     */
    @Test
    void mpWorkersSpinToo() throws Exception {
        try (ServerProcess p = ServerProcess.start("mp", "--workers", "1", "--work-ns", Long.toString(WORK_NS))) {
            assertThat(p.label()).isEqualTo("mp: 1 x lt, echo, work-ns " + WORK_NS);
            byte[] payload = Echo.random(100, 3);
            assertThat(Echo.roundTrip(p.address(), payload, 100, 3)).isEqualTo(payload);
            assertThat(p.terminate(30)).isZero();
            assertThat(p.output()).contains("[w1] listening on ").contains("(lt, echo, work-ns " + WORK_NS + ")");
            assertThat(CountersLine.parse(CountersLine.last(p.output())).get("work_ns")).isGreaterThanOrEqualTo(WORK_NS);
        }
    }

    private interface Traffic {
        void send() throws Exception;
    }

    /** The server {@code arch} and {@code options} describe on port 0, skipped where its JDK or kernel is missing. */
    private static Server start(String arch, String... options) {
        List<String> args = new ArrayList<>(Arrays.asList(arch.split(" ")));
        if (args.get(0).equals("vt")) Capability.JDK_21.assume();
        if (args.get(0).equals("uring")) Capability.IO_URING.assume();
        args.addAll(List.of("--port", "0"));
        args.addAll(List.of(options));
        return LabServer.newServer(args.toArray(new String[0]));
    }

    /** Runs the bound {@code server} on a thread of its own while {@code traffic} is sent, then stops it; its reads. */
    private static long run(Server server, Traffic traffic) throws Exception {
        Thread loop = new Thread(() -> {
            try {
                server.run();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "server");
        loop.start();
        try {
            traffic.send();
        } finally {
            server.stop();
            loop.join(10_000);
        }
        assertThat(loop.isAlive()).isFalse();
        return server.counters().get(Counter.READS);
    }
}
