package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.common.results.BenchComparison;
import niolab.common.stats.MedianInterval;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.Comparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-network reads one compare per path: each server's slices by round, relay0's from the
 * routed compare's suffixed targets, ratios paired by round, directions and conclusions only
 * where an interval excludes 1.
 */
class NetworkExperimentTest {
    /** A smoke run of the compare design (lt, et, mp; direct, relay0 and rtt5; 8 rounds), kept as it came. */
    private static final Path COMPARE_RUN = Path.of("src", "test", "resources", "network-compare");

    private static Map<Integer, Double> rates(BenchComparison json, String server) {
        Map<Integer, Double> v = new TreeMap<>();
        for (BenchComparison.Slice s : json.slices()) {
            if (s.server().equals(server) && !s.refused() && s.rate() != null) v.put(s.round(), s.rate());
        }
        return v;
    }

    private static double[] values(Map<Integer, Double> v) {
        return v.values().stream().mapToDouble(Double::doubleValue).toArray();
    }

    @Test
    void relay0ComesFromTheRoutedComparesOwnTargetsPairedByRound() {
        Results r = new Results(COMPARE_RUN);
        NetworkExperiment.Run run = new NetworkExperiment.Run(r);
        BenchComparison direct = r.json("compare-echo-direct.json", BenchComparison.class);
        assertThat(run.paths).containsExactly("direct", "relay0", "rtt5");
        assertThat(run.archs).containsExactly("lt", "et", "mp");
        Map<Integer, Double> lt = rates(direct, "lt"), ltRelayed = rates(direct, "lt-relay0");
        assertThat(run.point("echo", "direct", "lt").values(NetworkExperiment.RATE)).containsExactly(values(lt));
        assertThat(run.point("echo", "relay0", "lt").values(NetworkExperiment.RATE)).containsExactly(values(ltRelayed));
        assertThat(NetworkExperiment.Run.ratio(run.point("echo", "relay0", "lt"), run.point("echo", "direct", "lt"), NetworkExperiment.RATE))
                .isEqualTo(MedianInterval.medianOfRatios(values(ltRelayed), values(lt)));
        // the longest path runs 400 round trips per slice
        assertThat(run.sliceOf.get("rtt5")).isEqualTo(2.0);
    }

    @Test
    void aRoundOnlyOneServerServedIsLeftOutOfTheirRatio() {
        // a serves rounds 1-9 at twice b's rate; b misses round 9 and serves round 10 alone: 8 rounds pair
        Map<Integer, double[]> a = new TreeMap<>(), b = new TreeMap<>();
        for (int round = 1; round <= 9; round++) a.put(round, row(2 * round));
        for (int round = 1; round <= 10; round++) if (round != 9) b.put(round, row(round));
        NetworkExperiment.Point pa = new NetworkExperiment.Point(a, 0), pb = new NetworkExperiment.Point(b, 0);
        assertThat(NetworkExperiment.Run.pairedRounds(pa, pb, NetworkExperiment.RATE)).isEqualTo(8);
        assertThat(NetworkExperiment.Run.ratio(pa, pb, NetworkExperiment.RATE).estimate()).isEqualTo(2.0);
        assertThat(NetworkExperiment.Run.ratio(pa, pb, NetworkExperiment.CPU)).as("CPU not measured: no ratio").isNull();
        a.remove(1);
        a.remove(2);
        a.remove(3);
        assertThat(NetworkExperiment.Run.pairedRounds(pa, pb, NetworkExperiment.RATE)).isEqualTo(5);
        assertThat(NetworkExperiment.Run.ratio(pa, pb, NetworkExperiment.RATE)).as("5 paired rounds: no interval, as compare gives none").isNull();
        assertThat(NetworkExperiment.cell(pa, pb, NetworkExperiment.RATE, Comparison.Quantity.RATE, 0.02)).startsWith("too few paired rounds");
    }

    private static double[] row(double rate) {
        return new double[] {rate, 100, 200, Double.NaN};
    }

    @Test
    void everyRatioCellSaysTheDirectionItsIntervalAllows() {
        Report out = new Report();
        new NetworkExperiment().generate(new Results(COMPARE_RUN), out);
        Pattern cell = Pattern.compile("(\\d+\\.\\d{2,6}) \\[(\\d+\\.\\d{2,6}), (\\d+\\.\\d{2,6})\\]: (faster|slower|costlier|cheaper|the same|undecided)");
        int cells = 0;
        for (String table : new String[] {out.values.get("echo_ratios"), out.values.get("http_ratios"), out.values.get("relay_table")}) {
            cells += table.split("too few paired rounds", -1).length - 1;
            Matcher m = cell.matcher(table);
            while (m.find()) {
                cells++;
                double low = Double.parseDouble(m.group(2)), high = Double.parseDouble(m.group(3));
                String said = switch (m.group(4)) {
                    case "faster", "costlier" -> "above";
                    case "slower", "cheaper" -> "below";
                    case "the same" -> "same";
                    default -> "undecided";
                };
                // the verdict against the report's declared threshold, from the printed edges (shown with the digits that decide)
                double t = NetworkExperiment.THRESHOLD.value();
                assertThat(said).as(m.group())
                        .isEqualTo(low > 1 + t ? "above" : high < 1 - t ? "below" : low >= 1 - t && high <= 1 + t ? "same" : "undecided");
            }
        }
        // et and mp against lt on 3 paths, 2 protocols, rate and CPU; relay0 against routed for 3 servers, 2 protocols, rate and CPU:
        // each with its interval, or saying it has too few paired rounds for one
        assertThat(cells).isEqualTo(2 * 3 * 2 * 2 + 3 * 2 * 2);
    }

    @Test
    void theConclusionsCountTheResolvedComparisons() {
        Results r = new Results(COMPARE_RUN);
        NetworkExperiment.Run run = new NetworkExperiment.Run(r);
        int resolved = 0;
        for (String protocol : new String[] {"echo", "http"}) {
            for (String arch : new String[] {"et", "mp"}) {
                var ratio = NetworkExperiment.Run.ratio(run.point(protocol, "direct", arch), run.point(protocol, "direct", "lt"), NetworkExperiment.RATE);
                Comparison.Verdict v = Comparison.verdict(ratio, run.threshold);
                if (v == Comparison.Verdict.ABOVE || v == Comparison.Verdict.BELOW) resolved++;
            }
        }
        // both protocols, et and mp against lt: 4 comparisons routed, as analyse() counts them
        assertThat(NetworkExperiment.analyse(NetworkExperiment.load(r)).rate()).containsExactly(resolved, 4);
    }

    @Test
    void theConclusionsCaseSaysWhereTheClientAndTheCpuToldServersApart() {
        int[] none = {0, 4}, some = {2, 4};
        // rate: routed, then at the longest round trip
        assertThat(NetworkExperiment.rateCase(some, none)).isEqualTo("near");
        assertThat(NetworkExperiment.rateCase(none, none)).isEqualTo("neither");
        assertThat(NetworkExperiment.rateCase(none, some)).isEqualTo("far");
        assertThat(NetworkExperiment.rateCase(some, some)).isEqualTo("both");
        // CPU at the longest round trip, then the rate there
        assertThat(NetworkExperiment.cpuCase(some, none)).isEqualTo("cpu");
        assertThat(NetworkExperiment.cpuCase(some, some)).isEqualTo("both");
        assertThat(NetworkExperiment.cpuCase(none, none)).isEqualTo("neither");
        assertThat(NetworkExperiment.cpuCase(none, some)).isEqualTo("rate");
    }

    /** The template's conclusions as one case of the run's counts reads them: the sentence, said in both its places. */
    private static String conclusions(Report out) throws IOException {
        out.put("env", "").put("threshold", "");
        String md = out.fill(Files.readString(Path.of("..", "templates", "exp-network.md")), "exp-network.md");
        String said = md.substring(md.indexOf("## 5. Conclusions\n\n") + "## 5. Conclusions\n\n".length(), md.indexOf(" Where the client's window"));
        assertThat(md.substring(md.indexOf("## 6. The answer"))).contains(said);
        return said;
    }

    @Test
    void theTemplateSaysEachCaseOfTheConclusions() throws IOException {
        Report out = new Report();
        NetworkExperiment.render(NetworkExperiment.analyse(NetworkExperiment.load(new Results(COMPARE_RUN))), out);
        out.put("rate_case", "far").put("cpu_case", "rate");
        assertThat(conclusions(out)).startsWith("Against lt, paired by round, the client resolved a difference in rate in ")
                .contains(": the client told servers apart by rate at 5 ms but not routed. By the server's CPU per request, ")
                .endsWith(": CPU per request did not tell them apart at the longest round trip, where the rate did.");
        out.put("conclusions_measured", false);
        assertThat(conclusions(out)).isEqualTo("This run has too few paired rounds (fewer than " + MedianInterval.MIN_ROUNDS
                + ") for an interval on any server against lt: it cannot say whether the client told the architectures apart, routed or at 5 ms.");
    }

    @Test
    void theClaimsAreThreeValuedFromTheirOwnRatios() {
        NetworkExperiment.Run run = new NetworkExperiment.Run(new Results(COMPARE_RUN));
        var claims = NetworkExperiment.claims(run);
        // et and mp within 5% of lt at rtt5, and every server's relay0 below routed, per protocol
        assertThat(claims).hasSize(2 * (2 + 3));
        for (Claim c : claims) {
            ClaimVerdict v = c.verdict();
            if (c.measured().low() >= c.low() && c.measured().high() <= c.high()) assertThat(v).isEqualTo(ClaimVerdict.HOLDS);
            else if (c.measured().high() < c.low() || c.measured().low() > c.high()) assertThat(v).isEqualTo(ClaimVerdict.FAILS);
            else assertThat(v).isEqualTo(ClaimVerdict.UNDECIDED);
            assertThat(c.rounds()).isEqualTo(8);
        }
    }

    @Test
    void aCompareThatWroteNothingIsNamedAndItsCellsLeftEmpty(@TempDir Path dir) throws IOException {
        try (var files = Files.list(COMPARE_RUN)) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().equals("compare-http-rtt5.json")) Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        NetworkExperiment.Findings f = NetworkExperiment.analyse(NetworkExperiment.load(new Results(dir)));
        assertThat(f.data().run().missing).containsExactly("compare-http-rtt5.json");
        Report out = new Report();
        NetworkExperiment.render(f, out);
        assertThat(out.values.get("missing")).isEqualTo("compare-http-rtt5.json");
        assertThat(out.values.get("http_ratios")).contains("| rtt5 | 5 ms | – | – | – | – |");
        assertThat(out.values.get("http_table")).doesNotContain("| rtt5 |");
    }
}
