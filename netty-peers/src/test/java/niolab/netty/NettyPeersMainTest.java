package niolab.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.common.ReadyLine;
import niolab.common.ServerCatalog;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The entry point of the Netty peers, before any server runs. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class NettyPeersMainTest {
    @Test
    void missingServerGivesUsageAndExitTwo() throws Exception {
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("missing server: netty-nio, netty-epoll, netty-uring or netty-http").contains("Usage:");
    }

    @Test
    void everyPeerPrintsTheLabsVersion() throws Exception {
        for (String peer : ServerCatalog.named("netty")) {
            ServerProcess.InProcess run = ServerProcess.runInProcess(List.of(peer, "--version"));
            assertThat(run.exitCode()).as(peer).isZero();
            assertThat(run.output().trim()).as(peer).isEqualTo(ServerCatalog.VERSION);
        }
    }

    @Test
    void nativeTransportThatCannotLoadIsOneLineNamingTheCauseAndExitOne() throws Exception {
        // Netty's own switch turns every native transport off, as a kernel without io_uring would.
        List<String> noNative = List.of("env", "JAVA_TOOL_OPTIONS=-Dio.netty.transport.noNative=true");
        try (ServerProcess p = ServerProcess.launch(noNative, List.of("netty-uring", "--port", "0"))) {
            assertThat(p.awaitExit(30)).isEqualTo(1);
            assertThat(p.output()).doesNotContain(ReadyLine.PREFIX).doesNotContain("Exception")
                    .contains("error: netty-uring cannot run here: Native transport was explicit disabled"
                            + " with -Dio.netty.transport.noNative=true");
        }
    }
}
