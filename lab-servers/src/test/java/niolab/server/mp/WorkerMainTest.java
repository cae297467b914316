package niolab.server.mp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import niolab.server.LabServer;
import niolab.server.base.Arch;
import niolab.server.base.BackendMode;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A worker parses the options the user gave its master with the same command as a server of
 * its own ({@link WorkerMain}): every option reaches each worker with the same value, one that
 * WorkerMain never names included.
 */
class WorkerMainTest {
    /** Every server option, each away from its default. */
    private static final String[] EVERY_OPTION = {"mp", "--host", "localhost", "--port", "0", "--backlog", "77",
            "--buffer-size", "4096", "--sndbuf", "8192", "--loops", "3", "--protocol", "http", "--stats-interval", "1.5s", "--idle-timeout", "250ms",
            "--linger-time", "750ms", "--linger-bytes", "4096",
            "--mistake", "accept-once", "--mistake", "read-once", "--epoll-exclusive", "--work-ns", "5000",
            "--backend", "redis://localhost:6390", "--backend-mode", "pool", "--backend-timeout", "2s", "--backend-threads", "5",
            "--worker-arch", "et", "--binding", "ffm"};

    @Test
    void everyOptionTheUserGaveReachesTheWorkerWithItsValue() {
        MpCommand mp = parse(EVERY_OPTION);
        ServerConfig master = mp.config();
        List<String> argv = workerArgv(mp);
        CommandLine workerLine = WorkerMain.command(argv.get(0));
        workerLine.parseArgs(argv.subList(1, argv.size()).toArray(new String[0]));
        ServerCommand worker = workerLine.getCommand();
        ServerConfig w = worker.config();

        assertThat(w.arch()).isEqualTo(Arch.ET);
        assertThat(w.host()).isEqualTo("127.0.0.1");
        assertThat(w.port()).isEqualTo(9988);
        assertThat(w.reusePort()).isTrue();
        assertThat(w.exitOnStdinEof()).isTrue();
        assertThat(w).usingRecursiveComparison().ignoringFields("arch", "host", "port", "reusePort", "exitOnStdinEof").isEqualTo(master);
        assertThat(w.workNs()).as("an option WorkerMain never names").isEqualTo(5000);
        assertThat(w.loops()).isEqualTo(3);
        assertThat(w.backend().address().toString()).isEqualTo("localhost:6390");
        assertThat(argv).containsSequence("--binding", "ffm");
    }

    /** Guards the test above: an option ServerOptions gains later must be in EVERY_OPTION, so that the round trip proves it. */
    @Test
    void theRoundTripCoversEveryServerOption() {
        CommandLine mp = LabServer.commandLine("mp").getSubcommands().get("mp");
        List<String> given = List.of(EVERY_OPTION);
        List<String> missing = new ArrayList<>();
        Set<String> byMaster = WorkerCommand.MASTER_DECIDES;
        for (OptionSpec o : mp.getCommandSpec().mixins().get("options").options()) {
            if (!byMaster.contains(o.longestName()) && !given.contains(o.longestName())) missing.add(o.longestName());
        }
        assertThat(missing).as("server options the round trip leaves out").isEmpty();
        assertThat(given).contains("--backend", "--backend-mode", "--backend-timeout", "--backend-threads");
    }

    /** An architecture's own option, declared once in its mixin, reaches that architecture's workers, and only theirs. */
    @Test
    void theWorkersArchitecturesOwnOptionsReachThem() {
        List<String> argv = workerArgv(parse("mp", "--worker-arch", "uring", "--uring-mode", "bufring", "--loops", "2"));
        assertThat(argv).startsWith("uring").containsSequence("--uring-mode", "bufring").containsSequence("--loops", "2");
        CommandLine worker = WorkerMain.command("uring");
        worker.parseArgs(argv.subList(1, argv.size()).toArray(new String[0]));
        assertThat(worker.getCommandSpec().findOption("--uring-mode").<Object>getValue()).hasToString("bufring");
        assertThat(workerArgv(parse("mp", "--worker-arch", "et"))).doesNotContain("--uring-mode", "--binding");
    }

    @Test
    void optionsLeftAtTheirDefaultsAreNotPassedOn() {
        assertThat(workerArgv(parse("mp", "--port", "0", "--workers", "2")))
                .containsExactly("lt", "--host", "127.0.0.1", "--port", "9988", "--reuse-port", "--exit-on-stdin-eof");
    }

    @Test
    void aCommandLineTheMasterCouldNotHaveWrittenIsExitTwo() {
        assertThat(WorkerMain.run(new String[] {"lt", "--no-such-flag"})).isEqualTo(2);
        assertThat(WorkerMain.run(new String[] {"lt", "--port"})).isEqualTo(2);
        assertThat(WorkerMain.run(new String[] {"bio", "--port", "0"})).isEqualTo(2);
        assertThat(WorkerMain.run(new String[] {})).isEqualTo(2);
        assertThat(WorkerMain.run(new String[] {"lt", "--backend-mode", "LOOP"})).isEqualTo(2);
        assertThat(WorkerMain.run(new String[] {"lt", "--protocol", "gopher"})).isEqualTo(2);
    }

    @Test
    void aVtPoolsBackendDefaultsToVtsOwnPosture() {
        MpCommand mp = parse("mp", "--protocol", "http", "--backend", "redis://127.0.0.1:6390", "--worker-arch", "vt");
        List<String> argv = workerArgv(mp);
        CommandLine worker = WorkerMain.command("vt");
        worker.parseArgs(argv.subList(1, argv.size()).toArray(new String[0]));
        assertThat(((ServerCommand) worker.getCommand()).config().backend().mode()).isEqualTo(BackendMode.THREAD);
    }

    /** What a worker of {@code mp} runs on port 9988, from its architecture on. */
    private static List<String> workerArgv(MpCommand mp) {
        mp.config(); // the master's checks first, as its call() makes them
        List<String> cmd = new WorkerCommand(Arch.of(mp.workerArch), "127.0.0.1", mp.workerArgs()).forPort(9988);
        return cmd.subList(cmd.indexOf(WorkerMain.class.getName()) + 1, cmd.size());
    }

    private static MpCommand parse(String... args) {
        CommandLine.ParseResult parsed = LabServer.commandLine(args).parseArgs(args);
        return (MpCommand) parsed.subcommand().commandSpec().userObject();
    }
}
