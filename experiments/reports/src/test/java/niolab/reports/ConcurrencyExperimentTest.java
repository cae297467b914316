package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-concurrency in the compare design: each point's figures are its compare's medians, each
 * ratio to LT is paired by round, and a sentence names a direction only where the interval
 * excludes 1. The fixture is a smoke run (levels 1 and 16, 8 rounds of 0.25 s slices, on a
 * loaded machine), kept as it came; the tests that need a known answer rewrite its slices.
 */
class ConcurrencyExperimentTest {
    private static final Path COMPARE_RUN = Path.of("src", "test", "resources", "concurrency-compare");

    @TempDir
    Path dir;

    @Test
    void eachPointShowsItsComparesMediansAndPairedRatios() {
        Results r = new Results(COMPARE_RUN);
        Report out = generate(r);
        CompareRun run = CompareRun.of(r, "compare-keepalive-16.json", ConcurrencyExperiment.THRESHOLD);
        String table = out.values.get("keepalive_table");
        String row = table.lines().filter(l -> l.startsWith("| 16 |")).findFirst().orElseThrow();
        for (String arch : new String[] {"lt", "et", "mp"}) {
            assertThat(row).contains("| " + Md.f0(run.summary(arch).medianRate()) + " |");
        }
        var et = run.ratio("et", "lt", CompareRun.RATE);
        assertThat(row).contains(Md.f2(et.estimate()) + " [" + Md.f2(et.low()) + ", " + Md.f2(et.high()) + "]");
        assertThat(out.values.get("trust")).contains("fresh random order").doesNotContain("first run");
        assertThat(out.values.get("design_point")).contains("8 rounds of 0.25 s slices").contains("warm-up");
        assertThat(out.values.get("mid_level")).isEqualTo("16");
    }

    @Test
    void aServerAtHalfTheRateInEveryRoundIsCalledSlowerAndAnEqualOneUnresolved() throws IOException {
        copyFixture();
        // every round: et serves exactly lt's rate, mp half of it, at every point
        for (String file : new String[] {"compare-keepalive-1.json", "compare-keepalive-16.json", "compare-short-1.json", "compare-short-16.json"}) {
            rewriteRates(dir.resolve(file));
        }
        Report out = generate(new Results(dir));
        assertThat(out.values.get("mp_throughput")).contains("0.50× [0.50, 0.50], slower by 50.0%");
        String row = out.values.get("keepalive_table").lines().filter(l -> l.startsWith("| 16 |")).findFirst().orElseThrow();
        assertThat(row).contains("1.00 [1.00, 1.00]: the same within ±5.0%").contains("0.50 [0.50, 0.50]: slower by 50.0%");
        // lt and et tie: no single winner is named
        assertThat(row).endsWith("| unresolved: LT, ET |");
    }

    private static Report generate(Results r) {
        Report out = new Report();
        new ConcurrencyExperiment().generate(r, out);
        return out;
    }

    private void copyFixture() throws IOException {
        try (Stream<Path> files = Files.list(COMPARE_RUN)) {
            for (Path f : (Iterable<Path>) files::iterator) Files.copy(f, dir.resolve(f.getFileName()));
        }
    }

    @Test
    void moreConnectionsOnlyQueueWhereAPeakLiesBelowTheHighestLevel() {
        String[] levels = {"1", "16", "256"};
        assertThat(ConcurrencyExperiment.pastPeak(new int[] {2, 2, 2}, levels))
                .isEqualTo("Every server peaked at the highest level tried, so this run shows no point past which more connections only"
                        + " queue: each peak lies at or beyond 256 connections");
        assertThat(ConcurrencyExperiment.pastPeak(new int[] {1, 1, 1}, levels)).startsWith("LT and ET and MP peaked below the highest level tried")
                .endsWith("those can only queue");
        assertThat(ConcurrencyExperiment.pastPeak(new int[] {1, 2, 2}, levels)).startsWith("LT peaked below")
                .endsWith("; ET and MP peaked at the highest level tried, so their peaks lie at or beyond 256 connections");
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
