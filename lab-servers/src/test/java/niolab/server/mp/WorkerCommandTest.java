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
}
