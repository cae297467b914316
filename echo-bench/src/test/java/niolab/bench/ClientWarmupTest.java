package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The serial client's own warm-up runs against its own sink: the target sees exactly the requests asked for. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientWarmupTest {
    @Test
    void theWarmupNeverReachesTheTarget(@TempDir Path dir) throws Exception {
        try (TestEchoServer target = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            Path json = dir.resolve("warm.json");
            Cli run = Cli.run("--requests", "37", "--json", json.toString(), target.hostPort());
            assertThat(run.code()).as(run.out() + run.err()).isZero();
            // how many the warm-up did within its time bound depends on the CPU it got: on a starved machine, none
            assertThat(run.out()).containsPattern("; client warmed by [0-9]+ requests against its own in-process echo sink \\([0-9.]+ s\\), never the target");
            assertThat(target.accepted()).isEqualTo(37);
            assertThat(target.reads()).isEqualTo(37);
            assertThat(new ObjectMapper().readTree(json.toFile()).at("/config/client_warmup_requests").isNumber()).isTrue();
        }
    }

    @Test
    void aColdClientSaysSoAndStillSendsExactlyItsRequests() throws Exception {
        try (TestEchoServer target = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            Cli run = Cli.run("--requests", "12", "--cold-client", target.hostPort());
            assertThat(run.code()).as(run.out() + run.err()).isZero();
            assertThat(run.out()).contains("; cold client (--cold-client)").doesNotContain("warmed by");
            assertThat(target.accepted()).isEqualTo(12);
        }
    }

    /** The HTTP sink answers what the /ping codec checks: the warm-up's requests all succeed. */
    @Test
    void theSinkSpeaksEachProtocol() throws Exception {
        for (Codec codec : new Codec[] {new EchoCodec(Payload.random(64, 1)), new HttpPingCodec("127.0.0.1:1", false)}) {
            LoadSpec load = new LoadSpec(new java.net.InetSocketAddress("127.0.0.1", 1), codec, 1, 1, false, 1, 0, 5_000_000_000L, false,
                    SerialSocket.Kind.CHANNEL);
            ClientWarmup.Done done = ClientWarmup.run(load);
            assertThat(done.errors()).as(codec.name()).isZero();
            assertThat(done.requests()).as(codec.name()).isPositive();
        }
    }

    /** Concurrent modes have no client warm-up of their own (their --warmup runs against the target). */
    @Test
    void onlySerialRunsWarmTheirClient() throws Exception {
        try (TestEchoServer target = new TestEchoServer(TestEchoServer.Mode.ECHO)) {
            Cli run = Cli.run("-c", "2", "--keepalive", "--requests", "20", target.hostPort());
            assertThat(run.code()).as(run.out() + run.err()).isZero();
            assertThat(run.out()).doesNotContain("client warmed").doesNotContain("cold client");
        }
    }
}
