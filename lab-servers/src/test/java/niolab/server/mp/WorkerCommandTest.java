package niolab.server.mp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import niolab.server.LabServer;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;

class WorkerCommandTest {
    @Test
    void workerJvmGrantsNativeAccessOnceBeforeTheMainClass() {
        List<String> cmd = new WorkerCommand("et", "127.0.0.1", List.of()).forPort(9988);
        assertThat(cmd).containsOnlyOnce(ServerProcess.NATIVE_ACCESS);
        assertThat(cmd.indexOf(ServerProcess.NATIVE_ACCESS)).isLessThan(cmd.indexOf(LabServer.class.getName()));
    }

    @Test
    void workersCompileWithC1OnlyUnlessTheMastersOptionsChoose() {
        List<String> cmd = new WorkerCommand("lt", "127.0.0.1", List.of()).forPort(9988);
        assertThat(cmd).containsOnlyOnce(WorkerCommand.C1_ONLY);
        assertThat(cmd.indexOf(WorkerCommand.C1_ONLY)).isLessThan(cmd.indexOf(LabServer.class.getName()));
        assertThat(WorkerCommand.choosesJit(List.of("-Xmx64m"))).isFalse();
        assertThat(WorkerCommand.choosesJit(List.of("-XX:TieredStopAtLevel=4"))).isTrue();
        assertThat(WorkerCommand.choosesJit(List.of("-XX:-TieredCompilation"))).isTrue();
        assertThat(WorkerCommand.choosesJit(List.of("-Xint"))).isTrue();
    }
}
