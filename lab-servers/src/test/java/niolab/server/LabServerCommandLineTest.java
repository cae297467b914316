package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import niolab.server.base.Arch;
import niolab.server.base.Mistake;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line a start builds: its own architecture's command only, every one for help and typos. */
class LabServerCommandLineTest {
    private static final String[] EVERY_ARCH = {"lt", "et", "vt", "uring", "mp", "bio"};

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
        for (String[] args : new String[][] {{}, {"--help"}, {"lx", "--port", "0"}, {"--version"}}) {
            assertThat(LabServer.commandLine(args).getSubcommands().keySet()).as(String.join(" ", args)).containsExactly(EVERY_ARCH);
        }
    }

    @Test
    void anArchitecturesHelpStillEndsWithItsMistakes() {
        String help = LabServer.commandLine("lt", "--help").getSubcommands().get("lt").getUsageMessage();
        // help lines are picocli format strings: %n is its line break
        for (String line : Mistake.helpLines(Arch.LT)) assertThat(help).contains(line.replace("%n", ""));
    }
}
