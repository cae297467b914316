package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import niolab.common.ServerCatalog;
import niolab.server.base.Arch;
import niolab.server.base.Mistake;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line a start builds: its own architecture's command only, every one for help and typos. */
class LabServerCommandLineTest {
    private static final List<String> EVERY_ARCH = ServerCatalog.architectures();

    @Test
    void aStartBuildsOnlyTheCommandOfItsArchitecture() {
        for (String arch : EVERY_ARCH) {
            CommandLine cl = LabServer.commandLine(arch, "--port", "0");
            assertThat(cl.getSubcommands().keySet()).as(arch).containsExactly(arch);
            assertThat(cl.parseArgs(arch, "--port", "0").subcommand().commandSpec().name()).isEqualTo(arch);
        }
    }

    @Test
    void helpNoArgumentsAndTyposSeeEveryArchitectureInOrder() {
        List<String> every = new ArrayList<>(EVERY_ARCH);
        every.add("catalog");
        for (String[] args : new String[][] {{}, {"--help"}, {"lx", "--port", "0"}, {"--version"}}) {
            assertThat(LabServer.commandLine(args).getSubcommands().keySet()).as(String.join(" ", args)).containsExactlyElementsOf(every);
        }
    }

    @Test
    void anArchitecturesHelpStillEndsWithItsMistakes() {
        String help = LabServer.commandLine("lt", "--help").getSubcommands().get("lt").getUsageMessage();
        // help lines are picocli format strings: %n is its line break
        for (String line : Mistake.helpLines(Arch.LT)) assertThat(help).contains(line.replace("%n", ""));
    }
}
