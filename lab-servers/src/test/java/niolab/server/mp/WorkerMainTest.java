package niolab.server.mp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import niolab.server.LabServer;
import niolab.server.base.BackendOptions;
import niolab.server.base.ServerOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A worker reads the options its master parsed from a command line of its own, without picocli:
 * every option a user gives mp reaches each worker with the same value.
 */
class WorkerMainTest {
    /** Options the master sets on each worker itself, and the ones that are not the server's. */
    private static final Set<String> SET_BY_MASTER = Set.of("--host", "--port", "--reuse-port", "--exit-on-stdin-eof");

    /** Every server option, each away from its default. */
    private static final String[] EVERY_OPTION = {"mp", "--host", "localhost", "--port", "0", "--backlog", "77",
            "--buffer-size", "4096", "--sndbuf", "8192", "--loops", "3", "--protocol", "http", "--stats-interval", "1.5s", "--idle-timeout", "250ms",
            "--linger-time", "750ms", "--linger-bytes", "4096",
            "--mistake", "accept-once", "--mistake", "read-once", "--epoll-exclusive",
            "--backend", "redis://localhost:6390", "--backend-mode", "pool", "--backend-timeout", "2s", "--backend-threads", "5",
            "--worker-arch", "et", "--binding", "ffm"};

    @Test
    void everyOptionTheUserGaveReachesTheWorkerWithItsValue() throws Exception {
        MpCommand mp = parse(EVERY_OPTION);
        assertThat(mp.options.backend.problem("et")).isNull();

        WorkerMain.Spec worker = WorkerMain.Spec.parse(
                WorkerMain.args("et", mp.options, mp.binding, "127.0.0.1", 9988).toArray(new String[0]));

        assertThat(worker.arch()).isEqualTo("et");
        assertThat(worker.binding()).isEqualTo("ffm");
        ServerOptions w = worker.options();
        assertThat(w.arch()).isEqualTo("et");
        assertThat(w.host).isEqualTo("127.0.0.1");
        assertThat(w.port).isEqualTo(9988);
        assertThat(w.reusePort).isTrue();
        assertThat(w.exitOnStdinEof).isTrue();
        for (Field f : optionFields(ServerOptions.class)) {
            if (f.getName().equals("host") || f.getName().equals("port") || f.getName().equals("reusePort")
                    || f.getName().equals("exitOnStdinEof") || f.getName().equals("backend")) continue;
            assertThat(f.get(w)).as(f.getName()).isEqualTo(f.get(mp.options));
        }
        assertThat(w.loops).isEqualTo(3);
        for (Field f : optionFields(BackendOptions.class)) {
            assertThat(f.get(w.backend)).as("backend " + f.getName()).isEqualTo(f.get(mp.options.backend));
        }
        assertThat(w.backend.address.toString()).isEqualTo("localhost:6390");
    }

    /** Guards the test above: an option ServerOptions gains later must be in EVERY_OPTION, and so passed on. */
    @Test
    void theRoundTripCoversEveryServerOption() {
        CommandLine mp = LabServer.commandLine("mp").getSubcommands().get("mp");
        List<String> given = List.of(EVERY_OPTION);
        List<String> missing = new ArrayList<>();
        for (OptionSpec o : mp.getCommandSpec().mixins().get("options").options()) {
            if (!SET_BY_MASTER.contains(o.longestName()) && !given.contains(o.longestName())) missing.add(o.longestName());
        }
        assertThat(missing).as("server options the round trip leaves out").isEmpty();
        assertThat(given).contains("--backend", "--backend-mode", "--backend-timeout", "--backend-threads");
    }

    @Test
    void aCommandLineTheMasterCouldNotHaveWrittenIsExitTwo() {
        assertThat(WorkerMain.run(new String[] {"lt", "--no-such-flag"})).isEqualTo(2);
        assertThat(WorkerMain.run(new String[] {"lt", "--port"})).isEqualTo(2);
        assertThat(WorkerMain.run(new String[] {"bio", "--port", "0"})).isEqualTo(2);
        assertThat(WorkerMain.run(new String[] {"lt", "--backend-mode", "LOOP"})).isEqualTo(2);
        assertThat(WorkerMain.run(new String[] {"lt", "--protocol", "gopher"})).isEqualTo(2);
    }

    @Test
    void aVtPoolsBackendDefaultsToVtsOwnPosture() {
        MpCommand mp = parse("mp", "--protocol", "http", "--backend", "redis://127.0.0.1:6390", "--worker-arch", "vt");
        assertThat(mp.options.backend.problem("vt")).isNull();
        assertThat(WorkerMain.args("vt", mp.options, null, "127.0.0.1", 1)).containsSequence("--backend-mode", "THREAD");
    }

    private static MpCommand parse(String... args) {
        CommandLine.ParseResult parsed = LabServer.commandLine(args).parseArgs(args);
        return (MpCommand) parsed.subcommand().commandSpec().userObject();
    }

    private static List<Field> optionFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            if (f.isAnnotationPresent(CommandLine.Option.class) || f.isAnnotationPresent(CommandLine.ArgGroup.class)) fields.add(f);
        }
        return fields;
    }
}
