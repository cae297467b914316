package niolab.netty;

import static org.assertj.core.api.Assertions.assertThat;

import niolab.server.CliContractTest;
import niolab.server.testing.ServerProcess;
import niolab.server.testing.ServerUnderTest;
import org.junit.jupiter.api.Test;

/** netty-http speaks only HTTP, and says which transport it picked. */
class NettyHttpCliContractTest extends CliContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        Transport best = Transport.EPOLL.unavailabilityCause() == null ? Transport.EPOLL : Transport.NIO;
        return ServerUnderTest.of("netty-http").label("netty-http: " + best).protocol("http");
    }

    @Test
    void echoProtocolIsRefusedWithExitTwo() throws Exception {
        ServerProcess.InProcess run = runInProcess("--protocol", "echo");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("netty-http speaks only http").contains("Usage:").doesNotContain("Exception");
    }

    @Test
    void transportIsChosenByName() throws Exception {
        try (ServerProcess p = ServerProcess.start("netty-http", "--transport", "NIO")) {
            assertThat(p.label()).isEqualTo("netty-http: nio, http");
        }
        ServerProcess.InProcess run = runInProcess("--transport", "dpdk");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("'dpdk' is not a transport (nio, epoll or uring)").doesNotContain("Exception");
    }
}
