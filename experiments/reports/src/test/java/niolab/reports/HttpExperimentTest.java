package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * exp-http in the compare design: the tables are the compares' medians with ratios paired by
 * round, the claims against Netty come from the pairs' own rounds, and the ruler's "within 10%
 * of wrk" checks both sides of its bound. The fixture is a smoke run (lt, et, netty-nio,
 * netty-epoll; 8 rounds of 1 s slices, no warm-up, one redis round, on a loaded machine), kept
 * as it came; the tests that need a known answer rewrite its slices.
 */
class HttpExperimentTest {
    private static final Path COMPARE_RUN = Path.of("src", "test", "resources", "http-compare");

    @TempDir
    Path dir;

    @Test
    void tablesShowTheComparesMediansAndClaimsComeFromThePairsRounds() {
        Results r = new Results(COMPARE_RUN);
        Report out = generate(r);
        CompareRun pipeline = CompareRun.of(r, "compare-wrk-pipeline.json", HttpExperiment.THRESHOLD);
        String row = out.values.get("pipeline_table").lines().filter(l -> l.startsWith("| et |")).findFirst().orElseThrow();
        assertThat(row).startsWith("| et | " + Md.f0(pipeline.summary("et").medianRate()) + " |");
        var etOverLt = pipeline.ratio("et", "lt", CompareRun.RATE);
        assertThat(row).contains(Md.interval(etOverLt));
        var ltOverNio = pipeline.ratio("lt", "netty-nio", CompareRun.RATE);
        Claim expected = Claim.atLeast("x", ltOverNio, 8, 1.0);
        assertThat(out.values.get("claims_table")).contains("| pipelined depth 16: lt serves at least netty-nio's req/s | "
                + Md.fit(ltOverNio, ltOverNio.estimate()) + " | " + expected.interval() + " | 8 | " + expected.bound() + " |");
        assertThat(out.values.get("design_rounds")).contains("8 rounds of 1.00 s slices").contains("fresh random order");
        assertThat(out.values.get("servers")).isEqualTo("lt, et, netty-nio, netty-epoll");
        // the Netty peers' first keep-alive wrk slice served nothing: 7 paired rounds, enough for an interval (6 are)
        assertThat(out.values.get("claims_left_out")).isEmpty();
        assertThat(out.values.get("claims_table")).contains("| keep-alive: lt spends at most netty-nio's server CPU per request | ")
                .containsPattern("against netty-nio \\| [0-9.]+ \\| \\[[0-9., ]+\\] \\| 7 \\|");
    }

    @Test
    void theRulerFailsAboveTheBoundAsWellAsBelowAndHoldsWithin() throws IOException {
        assertThat(rulerVerdict(1.2)).isEqualTo("fails");
        assertThat(rulerVerdict(0.8)).isEqualTo("fails");
        assertThat(rulerVerdict(1.0)).isEqualTo("holds");
    }

    /** The ruler claim against lt when echo-bench's keep-alive rate is {@code factor} × wrk's in every round. */
    private String rulerVerdict(double factor) throws IOException {
        Path run = Files.createTempDirectory(dir, "run");
        try (Stream<Path> files = Files.list(COMPARE_RUN)) {
            for (Path f : (Iterable<Path>) files::iterator) Files.copy(f, run.resolve(f.getFileName()));
        }
        ObjectMapper json = new ObjectMapper();
        Map<String, Double> wrk = new HashMap<>();
        for (JsonNode s : json.readTree(run.resolve("compare-wrk-keepalive.json").toFile()).get("slices")) {
            wrk.put(s.get("server").asText() + "/" + s.get("round").asInt(), s.get("rate").asDouble());
        }
        Path file = run.resolve("compare-echo-bench-keepalive.json");
        JsonNode root = json.readTree(file.toFile());
        for (JsonNode s : root.get("slices")) {
            ((ObjectNode) s).put("rate", factor * wrk.get(s.get("server").asText() + "/" + s.get("round").asInt()));
        }
        json.writeValue(file.toFile(), root);
        String claim = "| keep-alive: echo-bench's req/s within 10% of wrk's (0.9 to 1.1×) against lt | ";
        String row = generate(new Results(run)).values.get("claims_table").lines().filter(l -> l.startsWith(claim)).findFirst().orElseThrow();
        // the bound is the declared one, with no margin read from the run's noise
        assertThat(row).contains("| 0.90 – 1.10 |");
        return row.substring(row.lastIndexOf('|', row.length() - 2) + 1, row.length() - 1).trim();
    }

    private static Report generate(Results r) {
        Report out = new Report();
        new HttpExperiment().generate(r, out);
        return out;
    }
}
