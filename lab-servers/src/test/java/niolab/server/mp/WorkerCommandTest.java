package niolab.server.mp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import niolab.server.LabServer;
import niolab.server.base.Arch;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;

class WorkerCommandTest {
    @Test
    void workerJvmGrantsNativeAccessOnceBeforeTheMainClass() {
        String[] args = {"mp", "--worker-arch", "et"};
        MpCommand mp = (MpCommand) LabServer.commandLine(args).parseArgs(args).subcommand().commandSpec().userObject();
        List<String> cmd = new WorkerCommand(Arch.ET, "127.0.0.1", mp.workerArgs()).forPort(9988);
        assertThat(cmd).containsOnlyOnce(ServerProcess.NATIVE_ACCESS);
        assertThat(cmd.indexOf(ServerProcess.NATIVE_ACCESS)).isLessThan(cmd.indexOf(WorkerMain.class.getName()));
        assertThat(cmd.subList(cmd.indexOf(WorkerMain.class.getName()) + 1, cmd.size())).containsExactly("et", "--host", "127.0.0.1", "--port", "9988", "--reuse-port", "--exit-on-stdin-eof");
    }
}
