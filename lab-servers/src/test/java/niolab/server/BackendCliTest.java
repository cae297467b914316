package niolab.server;

import static niolab.server.testing.Http.ascii;
import static niolab.server.testing.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.server.testing.Echo;
import niolab.server.testing.Http;
import niolab.server.testing.Http.Response;
import niolab.server.testing.RedisServer;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The backend options from the command line: bad ones are bad flags, a Redis that is down is no reason not to start. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BackendCliTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "lt --backend redis://127.0.0.1:6379                                   | --backend needs --protocol http",
        "lt --protocol http --backend http://127.0.0.1:6379                    | 'http://127.0.0.1:6379' is not redis://HOST:PORT",
        "et --protocol http --backend redis://127.0.0.1 --backend-mode sideways | 'sideways' is not a backend mode (loop, pool, blocking or thread)",
        "lt --protocol http --backend-mode pool                                 | Missing required argument(s): --backend=redis://HOST:PORT",
        "lt --protocol http --backend redis://127.0.0.1 --backend-threads 0     | --backend-threads must be between 1 and 1024, not 0",
        "et --protocol http --backend redis://127.0.0.1 --backend-timeout 0s    | --backend-timeout must be positive",
        "lt --protocol http --backend redis://127.0.0.1 --backend-mode thread   | (a virtual thread per connection); lt has loop, pool and blocking",
        "vt --protocol http --backend redis://127.0.0.1 --backend-mode pool     | own virtual thread: --backend-mode thread, not pool",
        "vt --backend redis://127.0.0.1                                        | --backend needs --protocol http"})
    void badBackendFlagsAreOneLineAndExitTwo(String args, String message) throws Exception {
        // In-process: flags parsed and checked, nothing started (CliContractTest sees a usage error's exit in a real process).
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of(args.trim().split(" +")));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains(message).contains("Usage:").doesNotContain("Exception");
    }

    @ParameterizedTest
    @ValueSource(strings = {"loop", "pool", "blocking"})
    void aRedisThatIsDownAtStartIsOneLineAndThen503(String mode) throws Exception {
        int nothing;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            nothing = s.getLocalPort();
        }
        try (ServerProcess p = ServerProcess.start("et", "--protocol", "http", "--backend", "redis://127.0.0.1:" + nothing,
                "--backend-mode", mode)) {
            for (int i = 0; i < 5; i++) assertThat(healthz(p).status()).isEqualTo(503);
            assertThat(p.output()).containsOnlyOnce("redis 127.0.0.1:" + nothing + " failed (");
            assertThat(p.terminate(20)).isZero();
            assertThat(p.output()).contains("backend_failures=5");
        }
    }

    @Test
    void everyLoopAndEveryWorkerHasItsBackend() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            List<String> backend = List.of("--protocol", "http", "--backend", redis.uri());
            try (ServerProcess loops = ServerProcess.start(args(List.of("lt", "--loops", "2"), backend));
                 ServerProcess mp = ServerProcess.start(args(List.of("mp", "--workers", "2", "--worker-arch", "et"), backend))) {
                assertThat(loops.label()).isEqualTo("lt, 2 loops, http, backend loop");
                for (int i = 0; i < 10; i++) {
                    assertThat(healthz(loops).body()).isEqualTo(BackendContractTest.SEEDED);
                    assertThat(healthz(mp).body()).isEqualTo(BackendContractTest.SEEDED);
                }
            }
        }
    }

    /** MISTAKE herd: the loops that poll the first loop's listener start their backends too. */
    @Test
    void withTheHerdMistakeEveryLoopStillHasItsBackend() throws Exception {
        try (RedisServer redis = RedisServer.start();
             ServerProcess herd = ServerProcess.start("et", "--loops", "2", "--mistake", "herd", "--protocol", "http",
                     "--backend", redis.uri())) {
            for (int i = 0; i < 40; i++) assertThat(healthz(herd).body()).isEqualTo(BackendContractTest.SEEDED);
            assertThat(herd.terminate(30)).isZero();
            Matcher loop2 = Pattern.compile("(?m)^\\[loop2\\] counters: accepts=(\\d+) ").matcher(herd.output());
            assertThat(loop2.find()).as(herd.output()).isTrue();
            // the second loop took some of the 40: they reached a loop that shares the first's listener
            assertThat(Long.parseLong(loop2.group(1))).isPositive();
        }
    }

    private static String[] args(List<String> head, List<String> tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(tail);
        return all.toArray(new String[0]);
    }

    private static Response healthz(ServerProcess p) throws Exception {
        try (Socket s = Echo.connect(p.address())) {
            s.getOutputStream().write(ascii(get("/healthz")));
            return Http.read(s.getInputStream());
        }
    }
}
