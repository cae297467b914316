package niolab.reports;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import niolab.common.ServerCatalog;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.BenchReport.Run;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;

/**
 * exp-short-run: the lab write-up's experiment 2.1 (100 serial requests x 3 runs per
 * architecture, bench.sh with 100 nc clients, the 10..60 sweep), with the original write-up's tables 3.1-3.5.
 */
public final class ShortRunExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.05, "a warm-up setting is worth changing for 5% of a short run's rate");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    public static final String[] ARCHS = ClassicServers.ARCHS;
    public static final String[] LABELS = ClassicServers.LABELS;
    /** The original write-up's means (its table 3.4), quoted to compare shapes, never to pass as ours. */
    private static final double[] SEED_QPS = {8109.5, 8028.8, 8214.6};
    private static final double[] SEED_P50 = {111, 112, 112};

    @Override
    public String name() {
        return "short-run";
    }

    /** What a figure from the 3 sequential runs per server carries instead of an interval. */
    static final String NO_INTERVAL = "3 runs, no interval";

    @Override
    public void generate(Results r, Report out) {
        BenchReport[] serial = new BenchReport[ARCHS.length];
        boolean allFaster = true;
        for (int a = 0; a < ARCHS.length; a++) {
            serial[a] = r.bench("serial-" + ARCHS[a] + ".json");
            out.put("table_" + ARCHS[a], seedTable(serial[a]));
            double[] qps = serial[a].column(Column.QPS);
            double later = Stats.mean(Arrays.copyOfRange(qps, 1, qps.length));
            out.put("warm_" + ARCHS[a], Md.f2(later / qps[0]) + "×");
            allFaster &= later > qps[0];
            out.put("errors_" + ARCHS[a], Long.toString(serial[a].errors().total()));
        }
        out.put("warm_reading", (allFaster ? "the later runs were faster on every server, as JVMs warming up would make them"
                : "not every server's later runs were faster than its first") + " (" + NO_INTERVAL + ")");
        compare(serial, out);
        benchSh(r, out);
        sweep(r, out);
        seed(serial, out);
        syscalls(r, out);
        pairs(r, out);
    }

    /**
     * The first 100 requests of fresh servers, repeated in rounds of random order (pairs.csv):
     * each architecture against LT and the warmed client against the cold one, paired by round,
     * with intervals; and the long run's steady state over the warmed short run, beside the
     * write-up's 2.17.
     */
    private static void pairs(Results r, Report out) {
        if (!r.has("pairs.csv")) {
            out.put("pairs_rounds", "0");
            out.put("pairs_table", "Not measured in this run: it predates the paired rounds (`make exp-short-run` measures them).");
            out.put("claims_table", "");
            out.put("claims_summary", "No claim was checked: this run has no paired rounds");
            out.put("claims_precision", "");
            out.put("pairs_reading", "This run predates the paired rounds of table 3.7.");
            out.put("pairs_arch", "not measured in this run");
            return;
        }
        Csv csv = r.csv("pairs.csv");
        List<Map<Integer, Double>> warm = new ArrayList<>(), cold = new ArrayList<>();
        int missing = 0, rounds = 0;
        for (String arch : ARCHS) {
            warm.add(new TreeMap<>());
            cold.add(new TreeMap<>());
        }
        for (Map<String, String> row : csv.rows()) {
            int a = Arrays.asList(ARCHS).indexOf(row.get("arch")), round = Integer.parseInt(row.get("round"));
            rounds = Math.max(rounds, round);
            if (!r.has(row.get("file"))) {
                missing++; // a run that died leaves no report: its round pairs without it
                continue;
            }
            (row.get("client").equals("warm") ? warm : cold).get(a).put(round, r.bench(row.get("file")).column(Column.QPS)[0]);
        }
        out.put("pairs_rounds", Integer.toString(rounds));
        List<List<String>> rows = new ArrayList<>();
        List<Claim> claims = new ArrayList<>();
        List<String> arch = new ArrayList<>(), archWarm = new ArrayList<>(), longShort = new ArrayList<>();
        Results longRun = new Results(r.dir.resolveSibling("long-run"));
        for (int a = 0; a < ARCHS.length; a++) {
            double[][] wc = paired(warm.get(a), cold.get(a));
            ForkInterval gain = Claim.paired(wc[0], wc[1]);
            rows.add(List.of(LABELS[a], Md.f1(Stats.median(values(warm.get(a)))), Md.f1(Stats.median(values(cold.get(a)))),
                    Md.ratio(gain.ratio()), Integer.toString(wc[0].length)));
            claims.add(Claim.atLeast(LABELS[a] + ": the warmed client's 100-request rate over the cold client's", gain, wc[0].length, 2.0));
            if (a > 0) {
                // the cold client is the original write-up's setting, so it leads; the warmed client's pairing is named as such
                arch.add(againstLt(a, paired(cold.get(a), cold.get(0))));
                archWarm.add(againstLt(a, paired(warm.get(a), warm.get(0))));
            }
            if (longRun.has("long-" + ARCHS[a] + ".json")) {
                double steady = SteadyState.qps(longRun.bench("long-" + ARCHS[a] + ".json"));
                longShort.add(LABELS[a] + " " + Md.f2(steady / Stats.median(values(warm.get(a)))) + "×");
            }
        }
        out.put("pairs_table", Md.table(List.of("arch", "warmed client QPS (median)", "cold client QPS (median)",
                "warmed / cold, median of per-round ratios [95% interval]", "paired rounds"), rows)
                + (missing == 0 ? "" : "\n\n" + missing + " of the " + csv.rows().size() + " runs left no report (a run that died): their rounds pair without them."));
        out.put("pairs_arch", "with a cold client, the original write-up's setting: " + String.join("; ", arch) + "; with the warmed client: "
                + String.join("; ", archWarm));
        out.put("pairs_reading", (longShort.isEmpty() ? "experiments/results/long-run/ holds no long run to set these short runs against."
                : "Against the steady state of the [long run](exp-long-run.md), this run's warmed short runs (table 3.7's medians) give a"
                + " steady / short ratio of " + String.join(", ", longShort) + ", beside the write-up's " + Md.f2(SteadyState.WRITE_UP_RATIO)
                + "× (two separate runs, so no interval).")
                + " Repeated on fresh servers in random order (table 3.7), the first 100 requests compare, " + out.values.get("pairs_arch") + ".");
        Claim.report(claims, "warmed / cold", out);
    }

    /** "ET against LT faster by 23% [..] (threshold ±5%) (8 rounds)": architecture {@code a} over LT in rounds paired {a, lt}. */
    private static String againstLt(int a, double[][] vs) {
        return LABELS[a] + " against LT " + Comparison.describe(Claim.ratio(vs[0], vs[1]), Comparison.Quantity.RATE, THRESHOLD.value())
                + " (" + vs[0].length + " rounds)";
    }

    /** The rounds both maps hold, in round order: {a's values, b's values}. */
    private static double[][] paired(Map<Integer, Double> a, Map<Integer, Double> b) {
        List<Integer> both = new ArrayList<>(a.keySet());
        both.retainAll(b.keySet());
        double[][] v = new double[2][both.size()];
        for (int i = 0; i < both.size(); i++) {
            v[0][i] = a.get(both.get(i));
            v[1][i] = b.get(both.get(i));
        }
        return v;
    }

    private static double[] values(Map<Integer, Double> m) {
        double[] v = new double[m.size()];
        int i = 0;
        for (double x : m.values()) v[i++] = x;
        return v;
    }

    /**
     * What exp-syscalls counted on the loop threads per serial short-connection request, read
     * from its results: each architecture's total, and the calls lt makes more of than et.
     */
    private static void syscalls(Results r, Report out) {
        Results sys = new Results(r.dir.resolveSibling("syscalls"));
        double[] total = new double[ARCHS.length];
        for (int a = 0; a < ARCHS.length; a++) total[a] = new SyscallCounts(sys, ARCHS[a], "serial").total("loop", 0);
        out.put("syscalls_serial_lt", Md.f1(total[0]));
        out.put("syscalls_serial_et", Md.f1(total[1]));
        out.put("syscalls_serial_range", Md.f1(total[Stats.best(total, false)]) + " to " + Md.f1(total[Stats.best(total, true)]));
        SyscallCounts lt = new SyscallCounts(sys, "lt", "serial"), et = new SyscallCounts(sys, "et", "serial");
        List<String> extra = new ArrayList<>();
        for (String call : lt.thread("loop").keySet()) {
            double more = lt.perRequest("loop", call, 0) - et.perRequest("loop", call, 0);
            if (more >= 0.5) extra.add("`" + call + "` +" + Md.f1(more));
        }
        out.put("syscalls_serial_extra", extra.isEmpty() ? "no call that lt makes at least once more per request"
                : "per request, " + String.join(", ", extra));
    }

    /** The original write-up's table: a row per run, then the mean of each column. */
    private static String seedTable(BenchReport b) {
        List<List<String>> rows = new ArrayList<>();
        for (Run run : b.runs()) {
            double[] v = new double[Column.values().length];
            for (Column c : Column.values()) v[c.ordinal()] = c.of(run);
            rows.add(seedRow("Run " + run.run(), v));
        }
        double[] mean = new double[Column.values().length];
        for (Column c : Column.values()) mean[c.ordinal()] = Stats.mean(b.column(c));
        rows.add(seedRow("mean", mean));
        return Md.table(List.of("run", "QPS", "min", "P50", "P90", "P99", "P999", "max", "elapsed"), rows);
    }

    private static List<String> seedRow(String label, double[] v) {
        return List.of(label, Md.f1(v[0]), Md.us(v[1]), Md.us(v[2]), Md.us(v[3]), Md.us(v[4]), Md.us(v[5]),
                Md.us(v[6]), Md.f3(v[7]) + " s");
    }

    /** Table 3.4: the means side by side, the winner and by how much. */
    private static void compare(BenchReport[] s, Report out) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(dimension("QPS mean", mean(s, Column.QPS), true, false, out, "qps"));
        rows.add(dimension("min (mean)", mean(s, Column.MIN), false, true, out, "min"));
        rows.add(dimension("P50 (mean)", mean(s, Column.P50), false, true, out, "p50"));
        rows.add(dimension("P99 (mean)", mean(s, Column.P99), false, true, out, "p99"));
        double[] spread = new double[s.length];
        for (int a = 0; a < s.length; a++) spread[a] = Stats.spread(s[a].column(Column.P99));
        rows.add(dimension("P99 spread over the 3 runs (max − min)", spread, false, true, out, "p99spread"));
        out.put("compare_table", Md.table(List.of("dimension", "LT", "ET", "MP", "best", "difference"), rows));
        double[] q = mean(s, Column.QPS);
        double lo = q[Stats.best(q, false)], hi = q[Stats.best(q, true)];
        double range = Stats.pctDiff(hi, lo);
        out.put("qps_range_pct", Md.f1(range) + "%");
        // three runs on one server each give no interval: a tie or a lead is for table 3.7's paired rounds to call
        out.put("qps_verdict", Md.f1(range) + "% apart, highest " + LABELS[Stats.best(q, true)]
                + " (means of 3 runs on one server each: no interval; the paired rounds of exp-short-run's table 3.7 say which differences"
                + " this run resolves)");
    }

    private static double[] mean(BenchReport[] s, Column column) {
        double[] v = new double[s.length];
        for (int a = 0; a < s.length; a++) v[a] = Stats.mean(s[a].column(column));
        return v;
    }

    /** A comparison row; also puts {@code best_KEY} (the winner's label) and {@code best_KEY_line}. */
    private static List<String> dimension(String name, double[] v, boolean higherIsBetter, boolean micros,
                                          Report out, String key) {
        int b = Stats.best(v, higherIsBetter);
        String diff = Md.versus(v, b, LABELS);
        List<String> row = new ArrayList<>();
        row.add(name);
        for (double x : v) row.add(micros ? Md.us(x) : Md.f1(x));
        row.add(LABELS[b]);
        row.add(diff.toString());
        out.put("best_" + key, LABELS[b]);
        out.put("best_" + key + "_line", LABELS[b] + " (" + diff + "; " + NO_INTERVAL + ")");
        return row;
    }

    /** Table 3.5: bench.sh with 100 nc clients, a row per round, and the median. */
    private static void benchSh(Results r, Report out) {
        Csv csv = r.csv("bench-100.csv");
        double[][] qps = new double[ARCHS.length][];
        for (int a = 0; a < ARCHS.length; a++) qps[a] = csv.numbers("qps", "arch", ARCHS[a], "clients", "100");
        int rounds = qps[0].length;
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            double[] v = {qps[0][i], qps[1][i], qps[2][i]};
            rows.add(List.of(Integer.toString(i + 1), Md.f1(v[0]), Md.f1(v[1]), Md.f1(v[2]), LABELS[Stats.best(v, true)]));
        }
        double[] med = {Stats.median(qps[0]), Stats.median(qps[1]), Stats.median(qps[2])};
        rows.add(List.of("median", Md.f1(med[0]), Md.f1(med[1]), Md.f1(med[2]), LABELS[Stats.best(med, true)]));
        out.put("bench100_table", Md.table(List.of("round", "LT QPS", "ET QPS", "MP QPS", "fastest"), rows));
        out.put("bench100_rounds", Integer.toString(rounds));
        out.put("bench100_best", LABELS[Stats.best(med, true)]);
        out.put("bench100_worst", LABELS[Stats.best(med, false)]);
        double[] all = csv.numbers("qps", "clients", "100");
        out.put("bench100_min", Md.f0(all[Stats.best(all, false)]));
        out.put("bench100_max", Md.f0(all[Stats.best(all, true)]));
        out.put("bench100_errors", Md.f0(Stats.sum(csv.numbers("errors", "clients", "100"))));
        // wall time per connection at that rate: what one short nc connection costs end to end
        out.put("bench100_us_per_conn", Md.f0(1e6 / Stats.median(all)));
    }

    /** The sweep: medians over the rounds, a chart, and the growth from 10 to 60 clients. */
    private static void sweep(Results r, Report out) {
        Csv csv = r.csv("sweep.csv");
        int[] levels = {10, 20, 30, 40, 50, 60};
        double[] x = new double[levels.length];
        double[][] y = new double[ARCHS.length][levels.length];
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < levels.length; i++) {
            x[i] = levels[i];
            List<String> row = new ArrayList<>();
            row.add(Integer.toString(levels[i]));
            for (int a = 0; a < ARCHS.length; a++) {
                y[a][i] = Stats.median(csv.numbers("qps", "arch", ARCHS[a], "clients", Integer.toString(levels[i])));
                row.add(Md.f1(y[a][i]));
            }
            rows.add(row);
        }
        out.put("sweep_table", Md.table(List.of("concurrency", "LT QPS", "ET QPS", "MP QPS"), rows));
        out.put("sweep_rounds", Integer.toString(csv.numbers("qps", "arch", "lt", "clients", "10").length));
        SvgChart chart = new SvgChart("bench.sh sweep: nc clients at once (median of rounds)", "concurrent nc clients", "QPS");
        for (int a = 0; a < ARCHS.length; a++) chart.series(LABELS[a], x, y[a]);
        out.chart("short-run-sweep.svg", chart.render());
        StringBuilder growth = new StringBuilder();
        for (int a = 0; a < ARCHS.length; a++) {
            if (a > 0) growth.append(", ");
            growth.append(LABELS[a]).append(' ').append(Md.f2(y[a][levels.length - 1] / y[a][0])).append('×');
        }
        out.put("sweep_growth", growth.toString());
        out.put("sweep_errors", Md.f0(Stats.sum(csv.numbers("errors"))));
    }

    /** Our means beside the original write-up's. */
    private static void seed(BenchReport[] s, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (int a = 0; a < ARCHS.length; a++) {
            double q = Stats.mean(s[a].column(Column.QPS)), p = Stats.mean(s[a].column(Column.P50));
            rows.add(List.of(LABELS[a], Md.f1(SEED_QPS[a]), Md.f1(q), Md.f2(q / SEED_QPS[a]) + "×",
                    Md.us(SEED_P50[a]), Md.us(p)));
        }
        out.put("seed_table", Md.table(List.of("arch", "write-up QPS", "our QPS", "ours / write-up", "write-up P50", "our P50"), rows));
        double[] ratio = new double[ARCHS.length];
        for (int a = 0; a < ARCHS.length; a++) ratio[a] = Stats.mean(s[a].column(Column.QPS)) / SEED_QPS[a];
        double lo = ratio[Stats.best(ratio, false)], hi = ratio[Stats.best(ratio, true)];
        out.put("ours_over_writeup", Md.f2(lo) + " to " + Md.f2(hi) + "× the write-up's" + (hi < 1 ? ", below it for every server"
                : lo > 1 ? ", above it for every server" : ""));
    }
}
