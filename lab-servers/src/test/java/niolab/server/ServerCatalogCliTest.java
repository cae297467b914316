package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import niolab.common.ServerCatalog;
import niolab.server.base.Architectures;
import niolab.server.testing.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The command line as lab-common's {@link ServerCatalog} describes it: the architectures it
 * registers, the options each takes (only those that act in it), {@code --version} on each, and
 * {@code lab-server catalog}'s TSV. All in-process: parsing only, nothing started.
 */
class ServerCatalogCliTest {

    @Test
    void theRegisteredArchitecturesAreTheCatalogs() {
        assertThat(Architectures.names()).containsExactlyElementsOf(ServerCatalog.architectures());
        assertThat(LabServer.commandLine().getSubcommands().keySet()).containsAll(ServerCatalog.architectures()).contains("catalog");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "vt --sndbuf 4096                                  | --sndbuf acts in lt and et, not in vt",
        "bio --sndbuf 4096                                 | --sndbuf acts in lt and et, not in bio",
        "uring --sndbuf 4096                               | --sndbuf acts in lt and et, not in uring",
        "bio --loops 2                                     | --loops acts in lt, et and uring, not in bio",
        "vt --mistake nagle                                | --mistake acts in lt and et, not in vt",
        "lt --epoll-exclusive                              | --epoll-exclusive acts in et, not in lt",
        "bio --protocol http --backend redis://127.0.0.1   | --backend acts in lt, et and vt, not in bio",
        "uring --protocol http --backend redis://127.0.0.1 | --backend acts in lt, et and vt, not in uring",
        "mp --worker-arch vt --sndbuf 4096                 | --sndbuf acts in lt and et, not in vt",
        "mp --worker-arch vt --loops 2                     | --loops acts in lt, et and uring, not in vt",
        "mp --worker-arch et --uring-mode basic            | --uring-mode is uring's own option; the workers run et"})
    void anOptionThatDoesNotActIsRefusedInOneLine(String args, String message) throws Exception {
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of((args.trim() + " --port 0").split(" +")));
        assertThat(run.exitCode()).as(run.output()).isEqualTo(2);
        if (args.startsWith("mp --worker-arch et --uring")) {
            assertThat(run.output()).contains(message).doesNotContain("Exception");
        } else {
            assertThat(run.output().trim()).isEqualTo("error: " + message);
        }
    }

    @Test
    void helpListsOnlyTheOptionsThatAct() {
        assertThat(option("vt", "--sndbuf")).isNull();
        assertThat(option("bio", "--loops")).isNull();
        assertThat(option("lt", "--sndbuf")).isNotNull();
        assertThat(option("uring", "--loops")).isNotNull();
        assertThat(option("mp", "--uring-mode")).as("mp takes its workers' own options").isNotNull();
        assertThat(option("mp", "--binding")).isNotNull();
    }

    @Test
    void theUringModeIsCheckedOnMpAsOnUringByItsOneDefinition() throws Exception {
        for (String first : new String[] {"uring", "mp --worker-arch uring"}) {
            ServerProcess.InProcess run = ServerProcess.runInProcess(List.of((first + " --uring-mode turbo --port 0").split(" ")));
            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.output()).contains("'turbo' is not a uring mode (basic, multishot, bufring, sqpoll)").doesNotContain("Exception");
        }
    }

    @Test
    void everySubcommandPrintsTheVersion() throws Exception {
        String version = LabServer.commandLine().getCommandSpec().version()[0];
        List<String> commands = new ArrayList<>(Architectures.names());
        commands.add("catalog");
        for (String command : commands) {
            ServerProcess.InProcess run = ServerProcess.runInProcess(List.of(command, "--version"));
            assertThat(run.exitCode()).as(command).isZero();
            assertThat(run.output().trim()).as(command).isEqualTo(version);
        }
    }

    @Test
    void catalogPrintsEveryEntryAsTsvWithTheOptionsItsCommandTakes() throws Exception {
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of("catalog"));
        assertThat(run.exitCode()).isZero();
        List<String> lines = run.output().lines().toList();
        assertThat(lines.get(0)).isEqualTo(CatalogCommand.HEADER);
        assertThat(lines).hasSize(ServerCatalog.servers().size() + 1);
        String vt = lines.stream().filter(l -> l.startsWith("vt\t")).findFirst().orElseThrow();
        assertThat(vt.split("\t")).hasSize(9);
        assertThat(vt.split("\t")[8]).contains("--port", "--idle-timeout").doesNotContain("--sndbuf", "--loops", "--mistake");
        String etFfm = lines.stream().filter(l -> l.startsWith("et-ffm\t")).findFirst().orElseThrow();
        assertThat(etFfm).startsWith("et-ffm\tet --binding ffm\tet\t22\ttrue\tnetty-epoll\tet --binding ffm\tfalse\t").contains("--binding");
    }

    @Test
    void catalogPrintsASelectionOnOneLineAndRefusesAnUnknownOne() throws Exception {
        ServerProcess.InProcess run = ServerProcess.runInProcess(List.of("catalog", "--selection", "bench"));
        assertThat(run.output().trim()).isEqualTo("lt et mp");
        ServerProcess.InProcess unknown = ServerProcess.runInProcess(List.of("catalog", "--selection", "nope"));
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.output()).contains("no selection named 'nope'");
    }

    private static CommandLine.Model.OptionSpec option(String arch, String name) {
        return LabServer.commandLine(arch).getSubcommands().get(arch).getCommandSpec().findOption(name);
    }
}
