package niolab.reports;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
    static final Threshold THRESHOLD = Threshold.of(0.05, "a warm-up setting is worth changing for {size} of the rate");

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
    /** The quantity of each architecture's warm-up claim (table 3.7). */
    static final String WARM_OVER_COLD = "the warmed client's 100-request rate over the cold client's";

    /** bench.sh with 100 nc clients: QPS per architecture and round, every round's QPS, and the errors over them. */
    record Bench100(double[][] qps, double[] all, double errors) {
    }

    /** The sweep: the clients at once per level, the median QPS per architecture and level, its rounds and errors. */
    record Sweep(int[] levels, double[][] medianQps, int rounds, double errors) {
    }

    /**
     * The paired rounds of fresh servers (pairs.csv): per architecture, the first 100 requests' QPS
     * by round for the warmed and the cold client; how many rounds, runs, and runs that left no report.
     */
    record Pairs(int rounds, List<Map<Integer, Double>> warm, List<Map<Integer, Double>> cold, int runs, int missing) {
    }

    /**
     * exp-syscalls' loop-thread syscalls per serial short-connection request: each architecture's
     * total, and per call lt's count over et's.
     */
    record Syscalls(double[] total, Map<String, Double> ltOverEt) {
    }

    /**
     * The run: the 3 sequential serial runs per architecture, bench.sh's 100 clients and sweep,
     * the paired rounds (null where the run predates them), the long run's steady QPS per
     * architecture (NaN where none is committed), and exp-syscalls' counts.
     */
    record Data(List<BenchReport> serial, Bench100 bench100, Sweep sweep, Pairs pairs, double[] longSteady, Syscalls syscalls) {
    }

    /** One architecture's warmed client over its cold one, paired by round, with the claim it decides. */
    record Gain(ForkInterval ratio, int rounds, Claim claim) {
    }

    /** Architecture {@code arch} against LT in rounds paired by round: the median ratio with its interval. */
    record AgainstLt(int arch, Interval ratio, int rounds) {
    }

    /**
     * What the run found: each server's later runs over its first ({@code allFaster}: on every
     * server), the means compared, bench.sh's medians and the sweep's growth, ours over the
     * write-up's, and from the paired rounds (empty without them) each gain and each server
     * against LT with the cold and the warmed client, and the long run's steady state over the
     * warmed short run (NaN where none).
     */
    record Findings(Data data, double[] warm, boolean allFaster, double[] meanQps, double qpsRangePct, double[] bench100Median,
            double[] sweepGrowth, double[] oursOverWriteUp, List<Gain> gains, List<AgainstLt> cold, List<AgainstLt> warmed,
            double[] steadyOverShort) {
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static Data load(Results r) {
        List<BenchReport> serial = new ArrayList<>();
        for (String arch : ARCHS) serial.add(r.bench("serial-" + arch + ".json"));
        Csv bench = r.csv("bench-100.csv");
        double[][] qps = new double[ARCHS.length][];
        for (int a = 0; a < ARCHS.length; a++) qps[a] = bench.numbers("qps", "arch", ARCHS[a], "clients", "100");
        Bench100 bench100 = new Bench100(qps, bench.numbers("qps", "clients", "100"), Stats.sum(bench.numbers("errors", "clients", "100")));
        Csv sweepCsv = r.csv("sweep.csv");
        int[] levels = {10, 20, 30, 40, 50, 60};
        double[][] y = new double[ARCHS.length][levels.length];
        for (int a = 0; a < ARCHS.length; a++) {
            for (int i = 0; i < levels.length; i++) {
                y[a][i] = Stats.median(sweepCsv.numbers("qps", "arch", ARCHS[a], "clients", Integer.toString(levels[i])));
            }
        }
        Sweep sweep = new Sweep(levels, y, sweepCsv.numbers("qps", "arch", "lt", "clients", "10").length, Stats.sum(sweepCsv.numbers("errors")));
        Results longRun = new Results(r.dir.resolveSibling("long-run"));
        double[] steady = new double[ARCHS.length];
        for (int a = 0; a < ARCHS.length; a++) {
            steady[a] = longRun.has("long-" + ARCHS[a] + ".json") ? SteadyState.qps(longRun.bench("long-" + ARCHS[a] + ".json")) : Double.NaN;
        }
        Results sys = new Results(r.dir.resolveSibling("syscalls"));
        double[] total = new double[ARCHS.length];
        for (int a = 0; a < ARCHS.length; a++) total[a] = new SyscallCounts(sys, ARCHS[a], "serial").total("loop", 0);
        SyscallCounts lt = new SyscallCounts(sys, "lt", "serial"), et = new SyscallCounts(sys, "et", "serial");
        Map<String, Double> more = new LinkedHashMap<>();
        for (String call : lt.thread("loop").keySet()) more.put(call, lt.perRequest("loop", call, 0) - et.perRequest("loop", call, 0));
        return new Data(serial, bench100, sweep, r.has("pairs.csv") ? pairs(r) : null, steady, new Syscalls(total, more));
    }

    private static Pairs pairs(Results r) {
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
        return new Pairs(rounds, warm, cold, csv.rows().size(), missing);
    }

    static Findings analyse(Data d) {
        int n = d.serial.size();
        double[] warm = new double[n], meanQps = mean(d.serial, Column.QPS), bench100 = new double[n], growth = new double[n], ours = new double[n];
        boolean allFaster = true;
        for (int a = 0; a < n; a++) {
            double[] qps = d.serial.get(a).column(Column.QPS);
            double later = Stats.mean(Arrays.copyOfRange(qps, 1, qps.length));
            warm[a] = later / qps[0];
            allFaster &= later > qps[0];
            bench100[a] = Stats.median(d.bench100.qps[a]);
            double[] y = d.sweep.medianQps[a];
            growth[a] = y[y.length - 1] / y[0];
            ours[a] = meanQps[a] / SEED_QPS[a];
        }
        double range = Stats.pctDiff(meanQps[Stats.best(meanQps, true)], meanQps[Stats.best(meanQps, false)]);
        List<Gain> gains = new ArrayList<>();
        List<AgainstLt> cold = new ArrayList<>(), warmed = new ArrayList<>();
        double[] steadyOverShort = new double[n];
        Arrays.fill(steadyOverShort, Double.NaN);
        Pairs p = d.pairs;
        if (p != null) {
            for (int a = 0; a < n; a++) {
                double[][] wc = paired(p.warm.get(a), p.cold.get(a));
                ForkInterval gain = Claim.paired(wc[0], wc[1]);
                gains.add(new Gain(gain, wc[0].length,
                        Claim.atLeast(LABELS[a] + ": " + WARM_OVER_COLD, gain, wc[0].length, 2.0)));
                if (a > 0) {
                    cold.add(againstLt(a, paired(p.cold.get(a), p.cold.get(0))));
                    warmed.add(againstLt(a, paired(p.warm.get(a), p.warm.get(0))));
                }
                steadyOverShort[a] = d.longSteady[a] / Stats.median(values(p.warm.get(a)));
            }
        }
        return new Findings(d, warm, allFaster, meanQps, range, bench100, growth, ours, gains, cold, warmed, steadyOverShort);
    }

    private static AgainstLt againstLt(int a, double[][] vs) {
        return new AgainstLt(a, Claim.ratio(vs[0], vs[1]), vs[0].length);
    }

    static void render(Findings f, Report out) {
        Data d = f.data;
        for (int a = 0; a < ARCHS.length; a++) {
            out.put("table_" + ARCHS[a], seedTable(d.serial.get(a)));
            out.put("warm_" + ARCHS[a], Md.f2(f.warm[a]) + "×");
            out.put("errors_" + ARCHS[a], Long.toString(d.serial.get(a).errors().total()));
        }
        out.put("warm_reading", (f.allFaster ? "the later runs were faster on every server, as JVMs warming up would make them"
                : "not every server's later runs were faster than its first") + " (" + NO_INTERVAL + ")");
        compare(f, out);
        benchSh(f, out);
        sweep(f, out);
        seed(f, out);
        syscalls(d.syscalls, out);
        pairs(f, out);
    }

    /**
     * The first 100 requests of fresh servers, repeated in rounds of random order (pairs.csv):
     * each architecture against LT and the warmed client against the cold one, paired by round,
     * with intervals; and the long run's steady state over the warmed short run, beside the
     * write-up's 2.17.
     */
    private static void pairs(Findings f, Report out) {
        Pairs p = f.data.pairs;
        out.put("paired", p == null ? "no" : "yes");
        if (p == null) {
            out.put("runs_missing", "no");
            out.put("long_run", "unpaired");
            out.put("pairs_rounds", "0");
            out.put("claims_table", "");
            out.put("claims_summary", "No claim was checked: this run has no paired rounds");
            out.put("claims_precision", "");
            out.put("pairs_arch", "not measured in this run");
            return;
        }
        out.put("pairs_rounds", Integer.toString(p.rounds));
        List<List<String>> rows = new ArrayList<>();
        List<Claim> claims = new ArrayList<>();
        List<String> longShort = new ArrayList<>();
        for (int a = 0; a < ARCHS.length; a++) {
            Gain g = f.gains.get(a);
            rows.add(List.of(LABELS[a], Md.f1(Stats.median(values(p.warm.get(a)))), Md.f1(Stats.median(values(p.cold.get(a)))),
                    Md.ratio(g.ratio.ratio()), Integer.toString(g.rounds)));
            claims.add(g.claim);
            if (!Double.isNaN(f.steadyOverShort[a])) longShort.add(LABELS[a] + " " + Md.f2(f.steadyOverShort[a]) + "×");
        }
        out.put("pairs_table", Md.table(List.of("arch", "warmed client QPS (median)", "cold client QPS (median)",
                "warmed / cold, median of per-round ratios [95% interval]", "paired rounds"), rows));
        out.put("pairs_missing", Integer.toString(p.missing));
        out.put("pairs_runs", Integer.toString(p.runs));
        out.put("runs_missing", p.missing == 0 ? "no" : "yes");
        // the cold client is the original write-up's setting, so it leads; the warmed client's pairing is named as such
        out.put("pairs_arch", "with a cold client, the original write-up's setting: " + againstLt(f.cold) + "; with the warmed client: "
                + againstLt(f.warmed));
        out.put("long_run", longShort.isEmpty() ? "no" : "yes");
        out.put("steady_over_short", String.join(", ", longShort));
        out.put("seed_ratio", Md.f2(SteadyState.WRITE_UP_RATIO) + "×");
        Claim.report(claims, "warmed / cold", out);
    }

    /** "ET against LT faster by 23% [..] (threshold ±5%) (8 rounds); MP against LT ...". */
    private static String againstLt(List<AgainstLt> all) {
        List<String> said = new ArrayList<>();
        for (AgainstLt x : all) {
            said.add(LABELS[x.arch] + " against LT " + Comparison.describe(x.ratio, Comparison.Quantity.RATE, THRESHOLD.value())
                    + " (" + x.rounds + " rounds)");
        }
        return String.join("; ", said);
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
     * from its results: each architecture's total, and the calls lt makes at least once more per
     * request than et (none, an empty list: the template says so).
     */
    private static void syscalls(Syscalls sys, Report out) {
        double[] total = sys.total;
        out.put("syscalls_serial_lt", Md.f1(total[0]));
        out.put("syscalls_serial_et", Md.f1(total[1]));
        out.put("syscalls_serial_range", Md.f1(total[Stats.best(total, false)]) + " to " + Md.f1(total[Stats.best(total, true)]));
        List<String> extra = new ArrayList<>();
        for (Map.Entry<String, Double> call : sys.ltOverEt.entrySet()) {
            if (call.getValue() >= 0.5) extra.add("`" + call.getKey() + "` +" + Md.f1(call.getValue()));
        }
        out.put("syscalls_serial_extra", String.join(", ", extra));
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
    private static void compare(Findings f, Report out) {
        List<BenchReport> s = f.data.serial;
        List<List<String>> rows = new ArrayList<>();
        rows.add(dimension("QPS mean", f.meanQps, true, false, out, "qps"));
        rows.add(dimension("min (mean)", mean(s, Column.MIN), false, true, out, "min"));
        rows.add(dimension("P50 (mean)", mean(s, Column.P50), false, true, out, "p50"));
        rows.add(dimension("P99 (mean)", mean(s, Column.P99), false, true, out, "p99"));
        double[] spread = new double[s.size()];
        for (int a = 0; a < spread.length; a++) spread[a] = Stats.spread(s.get(a).column(Column.P99));
        rows.add(dimension("P99 spread over the 3 runs (max − min)", spread, false, true, out, "p99spread"));
        out.put("compare_table", Md.table(List.of("dimension", "LT", "ET", "MP", "best", "difference"), rows));
        out.put("qps_range_pct", Md.f1(f.qpsRangePct) + "%");
        // three runs on one server each give no interval: a tie or a lead is for table 3.7's paired rounds to call
        out.put("qps_verdict", Md.f1(f.qpsRangePct) + "% apart, highest " + LABELS[Stats.best(f.meanQps, true)]
                + " (means of 3 runs on one server each: no interval; the paired rounds of exp-short-run's table 3.7 say which differences"
                + " this run resolves)");
    }

    private static double[] mean(List<BenchReport> s, Column column) {
        double[] v = new double[s.size()];
        for (int a = 0; a < v.length; a++) v[a] = Stats.mean(s.get(a).column(column));
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
    private static void benchSh(Findings f, Report out) {
        double[][] qps = f.data.bench100.qps;
        int rounds = qps[0].length;
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            double[] v = {qps[0][i], qps[1][i], qps[2][i]};
            rows.add(List.of(Integer.toString(i + 1), Md.f1(v[0]), Md.f1(v[1]), Md.f1(v[2]), LABELS[Stats.best(v, true)]));
        }
        double[] med = f.bench100Median;
        rows.add(List.of("median", Md.f1(med[0]), Md.f1(med[1]), Md.f1(med[2]), LABELS[Stats.best(med, true)]));
        out.put("bench100_table", Md.table(List.of("round", "LT QPS", "ET QPS", "MP QPS", "fastest"), rows));
        out.put("bench100_rounds", Integer.toString(rounds));
        out.put("bench100_best", LABELS[Stats.best(med, true)]);
        out.put("bench100_worst", LABELS[Stats.best(med, false)]);
        double[] all = f.data.bench100.all;
        out.put("bench100_min", Md.f0(all[Stats.best(all, false)]));
        out.put("bench100_max", Md.f0(all[Stats.best(all, true)]));
        out.put("bench100_errors", Md.f0(f.data.bench100.errors));
        // wall time per connection at that rate: what one short nc connection costs end to end
        out.put("bench100_us_per_conn", Md.f0(1e6 / Stats.median(all)));
    }

    /** The sweep: medians over the rounds, a chart, and the growth from 10 to 60 clients. */
    private static void sweep(Findings f, Report out) {
        Sweep sw = f.data.sweep;
        double[] x = new double[sw.levels.length];
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            x[i] = sw.levels[i];
            List<String> row = new ArrayList<>();
            row.add(Integer.toString(sw.levels[i]));
            for (int a = 0; a < ARCHS.length; a++) row.add(Md.f1(sw.medianQps[a][i]));
            rows.add(row);
        }
        out.put("sweep_table", Md.table(List.of("concurrency", "LT QPS", "ET QPS", "MP QPS"), rows));
        out.put("sweep_rounds", Integer.toString(sw.rounds));
        SvgChart chart = new SvgChart("bench.sh sweep: nc clients at once (median of rounds)", "concurrent nc clients", "QPS");
        for (int a = 0; a < ARCHS.length; a++) chart.series(LABELS[a], x, sw.medianQps[a]);
        out.chart("short-run-sweep.svg", chart.render());
        StringBuilder growth = new StringBuilder();
        for (int a = 0; a < ARCHS.length; a++) {
            if (a > 0) growth.append(", ");
            growth.append(LABELS[a]).append(' ').append(Md.f2(f.sweepGrowth[a])).append('×');
        }
        out.put("sweep_growth", growth.toString());
        out.put("sweep_errors", Md.f0(sw.errors));
    }

    /** Our means beside the original write-up's. */
    private static void seed(Findings f, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (int a = 0; a < ARCHS.length; a++) {
            double q = f.meanQps[a], p = Stats.mean(f.data.serial.get(a).column(Column.P50));
            rows.add(List.of(LABELS[a], Md.f1(SEED_QPS[a]), Md.f1(q), Md.f2(f.oursOverWriteUp[a]) + "×",
                    Md.us(SEED_P50[a]), Md.us(p)));
        }
        out.put("seed_table", Md.table(List.of("arch", "write-up QPS", "our QPS", "ours / write-up", "write-up P50", "our P50"), rows));
        double[] ratio = f.oursOverWriteUp;
        double lo = ratio[Stats.best(ratio, false)], hi = ratio[Stats.best(ratio, true)];
        out.put("ours_over_writeup", Md.f2(lo) + " to " + Md.f2(hi) + "× the write-up's" + (hi < 1 ? ", below it for every server"
                : lo > 1 ? ", above it for every server" : ""));
    }
}
