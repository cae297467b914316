package niolab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The committed reports say only what their committed results say: every experiment whose
 * results are in {@code experiments/results/NAME/} regenerates to exactly the committed
 * {@code experiments/exp-NAME.md} and charts.
 */
class ExperimentReportsTest {
    private static final Path EXPERIMENTS = Paths.get("..", "experiments").toAbsolutePath().normalize();

    @Test
    void everyExperimentHasATemplateAndAScript() {
        for (Experiment e : ExperimentReports.all()) {
            assertThat(EXPERIMENTS.resolve("templates/exp-" + e.name() + ".md")).as(e.name()).isRegularFile();
            assertThat(EXPERIMENTS.resolve("scripts/exp-" + e.name() + ".sh")).as(e.name()).isRegularFile();
        }
    }

    @Test
    void committedReportsMatchTheirResults() throws Exception {
        for (Experiment e : ExperimentReports.withResults(EXPERIMENTS)) {
            List<String> stale = ExperimentReports.stale(EXPERIMENTS, e);
            assertThat(stale).as("files of exp-%s that differ from what results/%s/ regenerate (run make reports)", e.name(), e.name())
                    .isEmpty();
        }
    }

    @Test
    void placeholdersWithoutAValueAreAnError() {
        Report r = new Report().put("a", "1");
        assertThat(r.fill("x {{a}} y", "t")).isEqualTo("x 1 y");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> r.fill("{{b}}", "t"))
                .hasMessageContaining("no value for {{b}}");
    }

    @Test
    void jsonReaderReadsWhatJsonWrites() {
        String text = new Json().begin().field("s", "a\"b\n").field("n", 12L).field("d", 1.5)
                .field("t", true).beginArray("xs").begin().field("k", 1L).end().endArray().end().toString();
        Object v = JsonReader.parse(text);
        assertThat(Results.get(v, "s")).isEqualTo("a\"b\n");
        assertThat(Results.num(v, "n")).isEqualTo(12.0);
        assertThat(Results.num(v, "d")).isEqualTo(1.5);
        assertThat(Results.get(v, "t")).isEqualTo(true);
        assertThat(Results.num(v, "xs", 0, "k")).isEqualTo(1.0);
    }

    @Test
    void statsOfKnownInputs() {
        double[] v = {3, 1, 2, 10};
        assertThat(Stats.mean(v)).isEqualTo(4.0);
        assertThat(Stats.median(v)).isEqualTo(2.5);
        assertThat(Stats.spread(v)).isEqualTo(9.0);
        assertThat(Stats.pctDiff(110, 100)).isEqualTo(10.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(Stats.best(v, true)).isEqualTo(3);
        assertThat(Stats.best(v, false)).isEqualTo(1);
    }

    @Test
    void chartIsWellFormedSvg() {
        String svg = new SvgChart("t", "x", "y").logX().series("a", new double[] {1, 2, 4}, new double[] {1, 5, 3}).render();
        assertThat(svg).startsWith("<svg").endsWith("</svg>\n").contains("<polyline").contains(">a</text>");
        assertThat(Files.exists(EXPERIMENTS)).isTrue();
    }
}
