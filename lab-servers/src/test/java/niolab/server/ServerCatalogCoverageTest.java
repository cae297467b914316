package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import niolab.common.ServerCatalog;
import niolab.server.base.Arch;
import org.junit.jupiter.api.Test;

/**
 * What adding a server to the catalog (lab-common's {@link ServerCatalog}) asks besides its code:
 * a contract test that starts it by its command line, a row in docs/servers.md's "Every server by
 * name", and a label of its own in the reports. ARCHITECTURE.md walks through it.
 */
class ServerCatalogCoverageTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void everyEntryHasAContractTestThatStartsItByItsCommandLine() throws IOException {
        String suites = contractTests();
        List<String> missing = new ArrayList<>();
        for (ServerCatalog.Server s : ServerCatalog.servers()) {
            if (!startedIn(suites, s)) missing.add(s.name() + " (ServerUnderTest.of" + s.words(2) + ")");
        }
        assertThat(missing).as("catalog entries no *ContractTest starts").isEmpty();
    }

    @Test
    void everyEntryHasARowInTheManual() throws IOException {
        String manual = Files.readString(ROOT.resolve("docs/servers.md"));
        List<String> missing = new ArrayList<>();
        for (ServerCatalog.Server s : ServerCatalog.servers()) {
            if (!manual.contains("\n| `" + s.name() + "` | ")) missing.add(s.name());
        }
        assertThat(missing).as("catalog entries without a row in docs/servers.md's 'Every server by name'").isEmpty();
    }

    @Test
    void everyEntryHasALabelOfItsOwn() {
        Set<String> labels = new HashSet<>();
        for (ServerCatalog.Server s : ServerCatalog.servers()) {
            assertThat(s.label()).as(s.name()).isNotBlank();
            assertThat(labels.add(s.label())).as("two entries labelled '" + s.label() + "'").isTrue();
        }
    }

    @Test
    void theArchConstantsAreTheCatalogsArchitectures() {
        List<String> constants = new ArrayList<>();
        for (Arch a : Arch.values()) constants.add(a.label);
        assertThat(constants).containsExactlyInAnyOrderElementsOf(ServerCatalog.architectures());
    }

    @Test
    void aMistakenEntryIsFound() throws IOException {
        // the checks above, against an entry no test starts and no row names: they must fail it
        ServerCatalog.Server ghost = new ServerCatalog.Server("ghost", "lt --ghost", "lt", 17, true, "", "ghost", false);
        assertThat(startedIn(contractTests(), ghost)).isFalse();
        assertThat(startedIn(contractTests(), ServerCatalog.server("et-ffm"))).isTrue();
        assertThat(Files.readString(ROOT.resolve("docs/servers.md"))).doesNotContain("\n| `ghost` | ");
    }

    /** Whether {@code suites} start {@code s}: {@code ServerUnderTest.of("et", "--binding", "ffm"}, its count 2 (UringArch.of: the same). */
    private static boolean startedIn(String suites, ServerCatalog.Server s) {
        String words = ".of(\"" + String.join("\", \"", s.words(2)) + "\"";
        return suites.contains("ServerUnderTest" + words) || suites.contains("UringArch" + words);
    }

    /** The test sources of lab-servers and the Netty peers, where the contract suites and the servers under test are. */
    private static String contractTests() throws IOException {
        StringBuilder all = new StringBuilder();
        for (String module : new String[] {"lab-servers", "netty-peers"}) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src"))) {
                for (Path f : files.filter(p -> p.toString().contains("/src/test") && p.toString().endsWith(".java")).toList()) {
                    all.append(Files.readString(f)).append('\n');
                }
            }
        }
        return all.toString();
    }
}
