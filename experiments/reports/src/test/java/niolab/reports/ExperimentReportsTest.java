package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The committed reports say only what their committed results say: every registered experiment
 * regenerates, from {@code experiments/results/NAME/}, exactly the committed
 * {@code experiments/exp-NAME.md} and charts, and nothing committed is left unchecked.
 */
class ExperimentReportsTest {
    private static final Path EXPERIMENTS = Paths.get("..").toAbsolutePath().normalize();

    @Test
    void everyExperimentHasATemplateAndAScript() {
        for (Experiment e : Experiments.all()) {
            assertThat(EXPERIMENTS.resolve("templates/exp-" + e.name() + ".md")).as(e.name()).isRegularFile();
            assertThat(EXPERIMENTS.resolve("scripts/exp-" + e.name() + ".sh")).as(e.name()).isRegularFile();
        }
    }

    @Test
    void committedReportsMatchTheirResults() throws IOException {
        List<String> checked = new ArrayList<>();
        TreeSet<String> rendered = new TreeSet<>();
        for (Experiment e : Experiments.all()) {
            // A new experiment waits for its first run on a quiet machine: no results and no report yet
            // (a report without results, or results without a report, still fail below).
            if (!Files.exists(EXPERIMENTS.resolve("results").resolve(e.name())) && !Files.exists(EXPERIMENTS.resolve("exp-" + e.name() + ".md"))) continue;
            // One render for both checks (a render is seconds of CPU); --check's own comparison is checkPassesOnTheCommittedReports'.
            List<String> stale = new ArrayList<>();
            for (Map.Entry<Path, String> f : ExperimentReports.render(EXPERIMENTS, e).entrySet()) {
                Path p = EXPERIMENTS.resolve(f.getKey());
                if (!Files.isRegularFile(p) || !Files.readString(p, StandardCharsets.UTF_8).equals(f.getValue())) stale.add(f.getKey().toString());
                rendered.add(f.getKey().toString());
            }
            assertThat(stale)
                    .as("files of exp-%s that differ from what results/%s/ regenerate (run make reports)", e.name(), e.name())
                    .isEmpty();
            checked.add(e.name());
        }
        // An empty registry, or a report nobody regenerates, must not pass as "all match".
        assertThat(checked).contains("short-run", "long-run", "concurrency", "syscalls", "time-wait", "http", "mistakes", "backend", "cold-start", "ffi", "uring", "architectures");
        assertThat(checked).containsExactlyInAnyOrderElementsOf(committedReports());
        assertThat(rendered).containsAll(committedCharts());
    }

    @Test
    void theFindingsMatchTheResults() throws IOException {
        Path readme = Findings.readme(EXPERIMENTS);
        assertThat(readme).as("experiments/README.md with a findings block").isEqualTo(EXPERIMENTS.resolve("README.md"));
        String committed = Files.readString(readme);
        assertThat(Findings.render(EXPERIMENTS, committed)).as("experiments/README.md's findings (run make reports)").isEqualTo(committed);
        // the block is filled, not left empty, and its links resolve from experiments/
        assertThat(committed).contains("claims checked on this run").contains("](exp-short-run.md)").doesNotContain("](experiments/");
        // the front page links the findings instead of holding a copy
        assertThat(Files.readString(EXPERIMENTS.resolveSibling("README.md"))).doesNotContain("BEGIN GENERATED findings");
    }

    @Test
    void theFindingsBlockIsReplacedAndTheRestKept(@TempDir Path dir) throws IOException {
        String readme = "# x\n\n<!-- BEGIN GENERATED findings -->\nold, by hand\n<!-- END GENERATED findings -->\n\n## after\n";
        String fresh = Findings.render(EXPERIMENTS, readme);
        assertThat(fresh).startsWith("# x\n\n<!-- BEGIN GENERATED findings -->\n").endsWith("<!-- END GENERATED findings -->\n\n## after\n")
                .doesNotContain("old, by hand").contains("exp-http");
        assertThatThrownBy(() -> Findings.render(EXPERIMENTS, "# no block\n")).hasMessageContaining("no <!-- BEGIN GENERATED findings --> block");
    }

    /** The NAME of every committed {@code exp-NAME.md}. */
    private static List<String> committedReports() throws IOException {
        try (Stream<Path> files = Files.list(EXPERIMENTS)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("exp-") && n.endsWith(".md"))
                    .map(n -> n.substring("exp-".length(), n.length() - ".md".length())).sorted().toList();
        }
    }

    private static List<String> committedCharts() throws IOException {
        try (Stream<Path> files = Files.list(EXPERIMENTS.resolve("charts"))) {
            return files.map(p -> EXPERIMENTS.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void placeholdersWithoutAValueAreAnError() {
        Report r = new Report().put("a", "1");
        assertThat(r.fill("x {{a}} y", "t")).isEqualTo("x 1 y");
        assertThatThrownBy(() -> r.fill("{{b}}", "t")).hasMessageContaining("no value for {{b}}");
    }

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = new CommandLine(new ExperimentReports());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void checkPassesOnTheCommittedReports() {
        assertThat(run(EXPERIMENTS.toString(), "--check")).as(err.toString()).isZero();
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void usageErrorsExitTwoWithOneClearLine() {
        assertThat(run(EXPERIMENTS.toString(), "no-such")).isEqualTo(2);
        assertThat(err.toString()).contains("no experiment named 'no-such' (known: short-run,");
        err.getBuffer().setLength(0);
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required parameter: 'EXPERIMENTS_DIR'");
        assertThat(run("--no-such-flag", EXPERIMENTS.toString())).isEqualTo(2);
    }

    @Test
    void missingResultsExitOneSayingWhichFile(@TempDir Path dir) {
        assertThat(run(dir.toString(), "http")).isEqualTo(1);
        assertThat(err.toString().trim()).startsWith("error: cannot read ").endsWith("env.json (run the experiment first)");
    }

    @Test
    void helpListsTheExitCodesAndTheSubcommand() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("Exit codes:").contains("summarize").contains("profile-shares");
    }
}
