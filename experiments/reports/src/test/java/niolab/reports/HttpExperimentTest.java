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
import niolab.common.stats.ClaimVerdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-http's analysis in the compare design: the rows are the compares' medians with ratios paired by
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
    void rowsAreTheComparesMediansAndClaimsComeFromThePairsRounds() {
        HttpExperiment.Data d = HttpExperiment.load(new Results(COMPARE_RUN));
        HttpExperiment.Findings f = HttpExperiment.analyse(d);
        CompareRun pipeline = d.wrk()[2];
        assertThat(f.servers()).containsExactly("lt", "et", "netty-nio", "netty-epoll");
        HttpExperiment.Row et = f.rows().get(2).get(1);
        assertThat(et.server()).isEqualTo("et");
        assertThat(et.rate()).isEqualTo(pipeline.summary("et").medianRate());
        assertThat(et.overBase()).isEqualTo(pipeline.ratio("et", "lt", CompareRun.RATE));
        var ltOverNio = pipeline.ratio("lt", "netty-nio", CompareRun.RATE);
        Claim lt = claim(f, "pipelined depth 16: lt serves at least netty-nio's req/s");
        assertThat(lt.measured().estimate()).isEqualTo(ltOverNio.estimate());
        assertThat(lt.rounds()).isEqualTo(8);
        // the Netty peers' first keep-alive wrk slice served nothing: 7 paired rounds, enough for an interval (6 are)
        assertThat(f.leftOut()).isEmpty();
        assertThat(claim(f, "keep-alive: echo-bench's req/s within 10% of wrk's (0.9 to 1.1×) against netty-nio").rounds()).isEqualTo(7);
    }

    @Test
    void redisIsComparedWithTheHighestMedianAndItsTies() {
        HttpExperiment.Data run = HttpExperiment.load(new Results(COMPARE_RUN));
        double[][] ceiling = {{1}, {1}};
        HttpExperiment.Findings f = HttpExperiment.analyse(new HttpExperiment.Data(run.wrk(), run.eb(), ceiling, ceiling, "redis 7"));
        HttpExperiment.Redis keepalive = f.redis().get(0);
        int best = Stats.best(f.rate()[0], true);
        assertThat(keepalive.best()).isEqualTo(f.servers().get(best));
        assertThat(keepalive.bestRate()).isEqualTo(f.rate()[0][best]);
        assertThat(keepalive.ceiling()).isEqualTo(1.0);
        assertThat(keepalive.ties()).doesNotContain(keepalive.best()).isSubsetOf(f.servers());
    }

    private static Claim claim(HttpExperiment.Findings f, String statement) {
        return f.claims().stream().filter(c -> c.statement().equals(statement)).findFirst().orElseThrow();
    }

    @Test
    void theRulerFailsAboveTheBoundAsWellAsBelowAndHoldsWithin() throws IOException {
        assertThat(rulerVerdict(1.2)).isEqualTo(ClaimVerdict.FAILS);
        assertThat(rulerVerdict(0.8)).isEqualTo(ClaimVerdict.FAILS);
        assertThat(rulerVerdict(1.0)).isEqualTo(ClaimVerdict.HOLDS);
    }

    /** The ruler claim against lt when echo-bench's keep-alive rate is {@code factor} × wrk's in every round. */
    private ClaimVerdict rulerVerdict(double factor) throws IOException {
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
        HttpExperiment.Findings f = HttpExperiment.analyse(HttpExperiment.load(new Results(run)));
        Claim c = claim(f, "keep-alive: echo-bench's req/s within 10% of wrk's (0.9 to 1.1×) against lt");
        // the bound is the declared one, with no margin read from the run's noise
        assertThat(c.low()).isEqualTo(0.9);
        assertThat(c.high()).isEqualTo(1.1);
        assertThat(f.rulerHeld()).isEqualTo(c.verdict() == ClaimVerdict.HOLDS ? f.servers().size() : 0);
        return c.verdict();
    }
}
