package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;

/**
 * exp-noise: how noise behaves on the machine that ran it (experiments/scripts/exp-noise.sh),
 * from `echo-bench compare --json` files: A/A interval width against slice length and rounds,
 * the order bias (read off random-order rounds by which server went first), sequential rounds
 * against paired slices in the same budget, quiet against a CPU hog, and one A/B comparison
 * repeated over time. Every interval is computed here from the slices, paired by round.
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class NoiseExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.02, "exp-noise measures the drift behind the tool's 2% default");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    static final String[] SLICES = {"0.25", "1", "4"};

    @Override
    public String name() {
        return "noise";
    }

    /** make noise-hog's repeated A/A comparisons in round order, with that run's settings and environment. */
    record Repeats(List<NoiseRounds> runs, Csv settings, RunEnvironment env) {
    }

    /**
     * The run: its settings, the A/A compares by slice length ({@link #SLICES} order), the
     * sequential rounds of A and of B, the A/A under a hog, the A/B runs in order, what filled
     * the gaps between them (null when not recorded), and the hog's repeats (null where a run
     * kept none).
     */
    record Data(Csv settings, NoiseRounds[] slices, NoiseRounds seqA, NoiseRounds seqB, NoiseRounds hog, List<NoiseRounds> ab,
            List<Map<String, String>> gaps, Repeats repeats) {
    }

    static Data load(Results r) {
        Csv settings = r.csv("settings.csv");
        NoiseRounds[] slices = new NoiseRounds[SLICES.length];
        for (int i = 0; i < SLICES.length; i++) slices[i] = NoiseRounds.of(r, "slice-" + SLICES[i] + ".json");
        List<NoiseRounds> ab = new ArrayList<>();
        int runs = Integer.parseInt(settings.row("key", "ab_runs").get("value"));
        for (int i = 0; i < runs; i++) ab.add(NoiseRounds.of(r, "ab-" + (i + 1) + ".json"));
        Results hog = new Results(r.dir.resolve("hog-repeats"));
        List<NoiseRounds> repeats = new ArrayList<>();
        for (int n = 1; hog.has("aa-" + n + ".json"); n++) repeats.add(NoiseRounds.of(hog, "aa-" + n + ".json"));
        return new Data(settings, slices, NoiseRounds.of(r, "seq-a.json"), NoiseRounds.of(r, "seq-b.json"), NoiseRounds.of(r, "hog.json"), ab,
                r.has("gaps.csv") ? r.csv("gaps.csv").rows() : null,
                repeats.isEmpty() ? null : new Repeats(repeats, hog.csv("settings.csv"), hog.json("env.json", RunEnvironment.class)));
    }

    /** One row of the slice table: a slice length's A/A ratio over its first {@code rounds} rounds ({@code all}: every round). */
    record SliceRow(String slice, int rounds, boolean all, Interval ratio) {
    }

    /**
     * What the run found: the slice rows, each slice length's interval width over all its
     * rounds (%) and the narrowest among those with an interval's rounds (-1 for none); the
     * order bias (B over A where A went first, where B did, and in all); the paired and the
     * sequential design's A/A; the hog's; the A/B runs' ratios and whether any two are apart;
     * the hog repeats' ratios, how many excluded 1, the chance of that many or more from exact
     * intervals, and the lab's bound.
     */
    record Findings(Data data, List<SliceRow> slices, double[] widths, int narrowest, Interval aFirst, Interval bFirst, boolean orderApart,
            Interval paired, Interval sequential, Interval hog, List<Interval> ab, boolean abDisagree, List<Interval> repeats, int differ,
            double atLeast, int bound) {
    }

    static Findings analyse(Data d) {
        List<SliceRow> rows = new ArrayList<>();
        double[] width = new double[SLICES.length];
        int narrowest = -1;
        for (int i = 0; i < SLICES.length; i++) {
            NoiseRounds rounds = d.slices[i];
            for (int k = MedianInterval.MIN_ROUNDS; k < rounds.count(); k *= 2) rows.add(new SliceRow(SLICES[i], k, false, rounds.ratio(k)));
            rows.add(new SliceRow(SLICES[i], rounds.count(), true, rounds.ratio(rounds.count())));
            width[i] = rounds.ratio(0).width() * 100;
            // an interval from too few rounds is narrow by undercoverage, not by precision: it competes with none
            if (rounds.count() >= MedianInterval.MIN_ROUNDS) {
                if (narrowest < 0 || width[i] < width[narrowest]) narrowest = i;
            }
        }
        NoiseRounds one = d.slices[1];
        Interval aFirst = one.ratioWhereFirst(one.servers.get(0)), bFirst = one.ratioWhereFirst(one.servers.get(1));
        List<Interval> ab = new ArrayList<>();
        for (NoiseRounds rounds : d.ab) ab.add(rounds.ratio(0));
        boolean disagree = false;
        for (Interval a : ab) {
            for (Interval b : ab) disagree |= a.high() < b.low();
        }
        List<Interval> repeats = new ArrayList<>();
        int differ = 0;
        if (d.repeats != null) {
            for (NoiseRounds rounds : d.repeats.runs) {
                Interval ratio = rounds.ratio(0);
                repeats.add(ratio);
                if (!ratio.contains(1)) differ++;
            }
        }
        // if every interval erred exactly 5% of the time: the chance of this many errors or more in as many comparisons
        double atLeast = 1;
        for (int k = 0; k < differ; k++) atLeast -= binomial(repeats.size(), k, 0.05);
        return new Findings(d, rows, width, narrowest, aFirst, bFirst, aFirst.high() < bFirst.low() || bFirst.high() < aFirst.low(),
                one.ratio(0), Claim.ratio(d.seqB.rates(0), d.seqA.rates(0)), d.hog.ratio(0), ab, disagree, repeats, differ, atLeast,
                repeats.size() / 10); // the lab's target: at most 2 of 20
    }

    @Override
    public void generate(Results r, Report out) {
        // the run measures noise itself and takes no separate A/A run: its own 1 s A/A (table 3.1) is its check
        out.put("env", r.withOwnFloor("slice-1.json").environment(THRESHOLD));
        render(analyse(load(r)), out);
        NoiseForks.generate(new Results(r.dir.resolve("forks")), out);
        // the section's sentences are a template of their own, beside the report's (experiments/templates/)
        NoiseCalibrated.generate(new Results(r.dir.resolve("calibrated")), r.dir.resolve("../../templates").normalize(), out);
    }

    static void render(Findings f, Report out) {
        Data d = f.data;
        for (String k : List.of("budget_s", "ab_runs", "ab_gap_s", "hog_start_s", "hog_end_s")) out.put(k, d.settings.row("key", k).get("value"));
        slices(f, out);
        Interval all = f.paired;
        out.put("order_table", Md.table(List.of("rounds", "A/A ratio (B over A)", "95% interval"), List.of(
                List.of("A first (what a fixed order A, B gives)", Md.f3(f.aFirst.estimate()), interval(f.aFirst)),
                List.of("B first (a fixed order B, A)", Md.f3(f.bFirst.estimate()), interval(f.bFirst)),
                List.of("all, in random order", Md.f3(all.estimate()), interval(all)))));
        out.put("order_apart", f.orderApart);
        Interval paired = f.paired, sequential = f.sequential;
        // the design table's rows are the template's: the figures of each design
        out.put("paired_ratio", Md.f3(paired.estimate()));
        out.put("paired_interval", interval(paired));
        out.put("sequential_ratio", Md.f3(sequential.estimate()));
        out.put("sequential_interval", interval(sequential));
        out.put("design_wider", sequential.width() > paired.width());
        out.put("design_has_one", sequential.contains(1));
        out.put("sequential_width", pct(sequential.width()));
        out.put("paired_width", pct(paired.width()));
        Interval hog = f.hog;
        out.put("hog_table", Md.table(List.of("machine", "A/A ratio", "95% interval", "width", "A's rate, (max − min) / median"), List.of(
                List.of("quiet (slice-1)", Md.f3(paired.estimate()), interval(paired), pct(paired.width()), pct(Stats.relativeSpread(d.slices[1].rates(0)))),
                List.of("CPU hog on the servers' core for part of the run", Md.f3(hog.estimate()), interval(hog), pct(hog.width()),
                        pct(Stats.relativeSpread(d.hog.rates(0)))))));
        out.put("hog_width", pct(hog.width()));
        out.put("hog_has_one", hog.contains(1));
        ab(f, out);
        repeats(f, out);
    }

    /** A/A by slice length, all rounds and the first 6, 12...: the interval and its width; the narrowest. */
    private static void slices(Findings f, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (SliceRow x : f.slices) {
            Interval a = x.ratio;
            String label = !x.all ? x.rounds + " (the first)"
                    : x.rounds + " (all" + (x.rounds < MedianInterval.MIN_ROUNDS ? "; fewer than " + MedianInterval.MIN_ROUNDS : "") + ")";
            rows.add(List.of(x.slice + " s", label, Md.f3(a.estimate()), interval(a), pct(a.width()),
                    a.contains(1) ? "contains 1" : "excludes 1: a false difference"));
        }
        out.put("slice_table", Md.table(List.of("slice", "rounds", "A/A ratio", "95% interval", "width", "against 1"), rows));
        out.put("min_rounds", Integer.toString(MedianInterval.MIN_ROUNDS));
        out.put("narrowest_found", f.narrowest >= 0);
        out.put("narrowest_slice_s", f.narrowest < 0 ? "" : SLICES[f.narrowest]);
        out.put("narrowest_width", f.narrowest < 0 ? "" : Md.f1(f.widths[f.narrowest]));
        double[] x = new double[SLICES.length];
        for (int i = 0; i < SLICES.length; i++) x[i] = Double.parseDouble(SLICES[i]);
        out.chart("noise-width-by-slice.svg", new SvgChart("A/A interval width in the same budget, by slice length", "slice (s, log2)",
                "95% interval width (% of the ratio)").logX().series("lt against lt", x, f.widths).render());
    }

    /** The A/B comparison repeated: each run's ratio with its interval, whether the runs agree, and what filled the gaps. */
    private static void ab(Findings f, Report out) {
        List<List<String>> rows = new ArrayList<>();
        int runs = f.ab.size();
        double[] x = new double[runs], est = new double[runs], low = new double[runs], high = new double[runs];
        String names = "";
        for (int i = 0; i < runs; i++) {
            NoiseRounds rounds = f.data.ab.get(i);
            names = rounds.servers.get(1) + " against " + rounds.servers.get(0);
            Interval a = f.ab.get(i);
            rows.add(List.of(Integer.toString(i + 1), rounds.started(), Md.f3(a.estimate()), interval(a), pct(a.width())));
            x[i] = i + 1;
            est[i] = a.estimate();
            low[i] = a.low();
            high[i] = a.high();
        }
        List<String> work = new ArrayList<>();
        if (f.data.gaps != null) {
            for (Map<String, String> gap : f.data.gaps) {
                String cmd = gap.get("work");
                if (cmd != null && !cmd.isEmpty()) work.add("gap " + gap.get("gap") + ": `" + cmd + "` for " + gap.get("work_s") + " s");
            }
        }
        out.put("ab_gaps_case", f.data.gaps == null ? "none" : work.isEmpty() ? "idle" : "work");
        out.put("ab_gaps_work", String.join("; ", work));
        out.put("ab_pair", names);
        out.put("ab_table", Md.table(List.of("run", "started (UTC)", names + ", rate ratio", "95% interval", "width"), rows));
        out.put("ab_disagree", f.abDisagree);
        out.put("ab_range", Md.f3(est[Stats.best(est, false)]) + " to " + Md.f3(est[Stats.best(est, true)]));
        out.chart("noise-ab-runs.svg", new SvgChart("The same A/B comparison in separate runs: " + names, "run", "rate ratio")
                .series("estimate", x, est).series("95% low", x, low).series("95% high", x, high).render());
    }

    /**
     * make noise-hog's repeated A/A comparisons under a CPU hog, where a run kept them in
     * hog-repeats/ (aa-N.json): how many called a difference between identical servers, against
     * the one in twenty a 95% interval allows.
     */
    private static void repeats(Findings f, Report out) {
        Repeats r = f.data.repeats;
        out.put("repeats_measured", r != null);
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < f.repeats.size(); i++) {
            Interval ratio = f.repeats.get(i);
            String verdict = ratio.low() > 1 ? "lt-b faster" : ratio.high() < 1 ? "lt-b slower" : "no difference";
            rows.add(List.of(Integer.toString(i + 1), Integer.toString(r.runs.get(i).count()), Md.f3(ratio.estimate()), interval(ratio), verdict));
        }
        int n = f.repeats.size();
        out.put("repeats_count", Integer.toString(n));
        out.put("repeats_date", r == null ? "" : r.env.date());
        out.put("repeats_commit", r == null ? "" : r.env.commit());
        for (String k : List.of("rounds", "slice", "load_before", "load_after")) out.put("repeats_" + k, r == null ? "" : r.settings.row("key", k).get("value"));
        out.put("repeats_rows", Md.table(List.of("repeat", "rounds", "lt-b / lt-a rate", "95% interval", "verdict"), rows));
        out.put("repeats_differ", Integer.toString(f.differ));
        out.put("repeats_bound", Integer.toString(f.bound));
        out.put("repeats_met", f.differ <= f.bound);
        out.put("repeats_none", f.differ == 0);
        out.put("repeats_chance", Md.f1((f.differ == 0 ? binomial(n, 0, 0.05) : f.atLeast) * 100));
    }

    /** P(X = k) for X ~ Binomial(n, p). */
    private static double binomial(int n, int k, double p) {
        double c = 1;
        for (int i = 0; i < k; i++) c = c * (n - i) / (i + 1);
        return c * Math.pow(p, k) * Math.pow(1 - p, n - k);
    }

    private static String interval(Interval i) {
        return "[" + Md.edge(3, i.low(), 1) + ", " + Md.edge(3, i.high(), 1) + "]";
    }

    /** A ratio's width as a percentage: 0.021 → "2.1%". */
    private static String pct(double v) {
        return Md.f1(v * 100) + "%";
    }
}
