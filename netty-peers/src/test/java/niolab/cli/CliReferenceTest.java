package niolab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** docs/cli/ says what the parsers accept: regenerated, it is what is committed, and no option is left out. */
class CliReferenceTest {
    /** Surefire runs in the module's directory, one below the repository's root. */
    private static final Path COMMITTED = Path.of("").toAbsolutePath().getParent().resolve("docs/cli");

    @Test
    void theCommittedReferenceIsWhatTheCodeRendersRunMakeDocsWhenItIsNot(@TempDir Path dir) throws Exception {
        CliReference.main(new String[] {dir.toString()});
        Map<String, String> fresh = CliReference.read(dir);
        // a renderer that wrote nothing would match an empty docs/cli/
        assertThat(fresh).containsKeys("README.md", "lab-server.md", "lab-server-lt.md", "lab-server-mp.md",
                "lab-server-netty-http.md", "echo-bench.md", "echo-bench-compare.md", "echo-bench-merge.md");
        Map<String, String> committed = CliReference.read(COMMITTED);
        assertThat(committed.keySet()).as("pages in docs/cli/ (make docs regenerates them)").isEqualTo(fresh.keySet());
        for (Map.Entry<String, String> page : fresh.entrySet()) {
            assertThat(committed.get(page.getKey())).as("docs/cli/%s is stale: run make docs", page.getKey())
                    .isEqualTo(page.getValue());
        }
    }

    @Test
    void everyOptionOfEveryCommandAppearsInItsPage() {
        Map<String, String> pages = CliReference.pages();
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (CommandSpec spec : CliReference.commands()) {
            String page = pages.get(CliReference.fileName(spec));
            for (OptionSpec option : spec.options()) {
                checked++;
                for (String name : option.names()) {
                    if (page == null || !page.contains("`" + name + "`")) missing.add(spec.qualifiedName(" ") + " " + name);
                }
            }
        }
        // compare's run and server options, the hidden --exit-on-stdin-eof: the ones a newcomer looked for
        assertThat(pages.get("echo-bench-compare.md")).contains("`--start-timeout`", "`--wrk`", "`--wrk-script`");
        assertThat(pages.get("lab-server-lt.md")).contains("`--exit-on-stdin-eof`");
        assertThat(checked).isGreaterThan(100);
        assertThat(missing).as("options in no page").isEmpty();
    }

    @Test
    void aPageEscapesWhatMarkdownWouldReadAsHtmlOrAColumnBreak() {
        String compare = CliReference.pages().get("echo-bench-compare.md");
        for (String line : compare.split("\n")) {
            if (!line.startsWith("| `")) continue;
            // an option row keeps its three columns: a raw | would add one
            assertThat(line.replace("\\|", "").chars().filter(c -> c == '|').count()).as(line).isEqualTo(4);
            assertThat(line.replaceAll("`[^`]*`", "")).as(line).doesNotContain("<");
        }
        assertThat(Files.exists(COMMITTED.resolve("README.md"))).isTrue();
    }
}
