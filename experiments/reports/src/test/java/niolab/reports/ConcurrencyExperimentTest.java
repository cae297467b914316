package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import niolab.common.stats.Comparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-concurrency's analysis in the compare design: each point's figures are its compare's
 * medians, each ratio to LT is paired by round, and a direction is decided only where the
 * interval excludes 1. The fixture is a smoke run (levels 1 and 16, 8 rounds of 0.25 s slices, on a
 * loaded machine), kept as it came; the tests that need a known answer rewrite its slices.
 */
class ConcurrencyExperimentTest {
    private static final Path COMPARE_RUN = Path.of("src", "test", "resources", "concurrency-compare");

    @TempDir
    Path dir;

    @Test
    void eachPointHoldsItsComparesMediansAndPairedRatios() {
        ConcurrencyExperiment.Data d = ConcurrencyExperiment.load(new Results(COMPARE_RUN));
        ConcurrencyExperiment.Findings f = ConcurrencyExperiment.analyse(d);
        CompareRun run = d.runs()[0][1];
        ConcurrencyExperiment.Mode keepalive = f.modes().get(0);
        String[] archs = {"lt", "et", "mp"};
        for (int a = 0; a < archs.length; a++) {
            assertThat(keepalive.qps()[a][1]).isEqualTo(Stats.median(run.rates(archs[a])));
        }
        assertThat(keepalive.points()[1].overLt()[1]).isEqualTo(run.ratio("et", "lt", CompareRun.RATE));
        assertThat(f.design().design()).contains("8 rounds of 0.25 s slices");
        assertThat(f.levels()).containsExactly("1", "16");
    }

    @Test
    void aServerAtHalfTheRateInEveryRoundIsSlowerAndAnEqualOneUnresolved() throws IOException {
        copyFixture();
        // every round: et serves exactly lt's rate, mp half of it, at every point
        for (String file : new String[] {"compare-keepalive-1.json", "compare-keepalive-16.json", "compare-short-1.json", "compare-short-16.json"}) {
            rewriteRates(dir.resolve(file));
        }
        ConcurrencyExperiment.Findings f = ConcurrencyExperiment.analyse(ConcurrencyExperiment.load(new Results(dir)));
        assertThat(f.mpOverLoop().estimate()).isEqualTo(0.5);
        assertThat(Comparison.verdict(f.mpOverLoop(), ConcurrencyExperiment.THRESHOLD.value())).isEqualTo(Comparison.Verdict.BELOW);
        ConcurrencyExperiment.Point p = f.modes().get(0).points()[1];
        assertThat(Comparison.verdict(p.overLt()[1], ConcurrencyExperiment.THRESHOLD.value())).isEqualTo(Comparison.Verdict.SAME);
        assertThat(Comparison.verdict(p.overLt()[2], ConcurrencyExperiment.THRESHOLD.value())).isEqualTo(Comparison.Verdict.BELOW);
        // lt and et tie: no single winner is named
        List<String> named = new ArrayList<>(p.ties());
        named.add(List.of("lt", "et", "mp").get(p.best()));
        assertThat(named).containsExactlyInAnyOrder("lt", "et");
    }

    private void copyFixture() throws IOException {
        try (Stream<Path> files = Files.list(COMPARE_RUN)) {
            for (Path f : (Iterable<Path>) files::iterator) Files.copy(f, dir.resolve(f.getFileName()));
        }
    }

    @Test
    void moreConnectionsOnlyQueueWhereAPeakLiesBelowTheHighestLevel() {
        assertThat(ConcurrencyExperiment.pastPeak(new int[] {2, 2, 2}, 3)).containsExactly(List.of(), List.of("LT", "ET", "MP"));
        assertThat(ConcurrencyExperiment.pastPeak(new int[] {1, 1, 1}, 3)).containsExactly(List.of("LT", "ET", "MP"), List.of());
        assertThat(ConcurrencyExperiment.pastPeak(new int[] {1, 2, 2}, 3)).containsExactly(List.of("LT"), List.of("ET", "MP"));
    }

    /** Sets et's slice rate to lt's and mp's to half of lt's, round by round. */
    private static void rewriteRates(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(file.toFile());
        ArrayNode slices = (ArrayNode) root.get("slices");
        Map<Integer, Double> lt = new HashMap<>();
        slices.forEach(s -> {
            if (s.get("server").asText().equals("lt")) lt.put(s.get("round").asInt(), s.get("rate").asDouble());
        });
        slices.forEach(s -> {
            double base = lt.get(s.get("round").asInt());
            switch (s.get("server").asText()) {
                case "et" -> ((ObjectNode) s).put("rate", base);
                case "mp" -> ((ObjectNode) s).put("rate", base / 2);
                default -> { }
            }
        });
        json.writeValue(file.toFile(), root);
    }
}
