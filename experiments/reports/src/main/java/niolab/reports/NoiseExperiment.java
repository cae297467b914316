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
 */
public final class NoiseExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.02, "exp-noise studies the tool's own default, 2%, the least difference a shared machine's drift leaves readable");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    static final String[] SLICES = {"0.25", "1", "4"};

    @Override
    public String name() {
        return "noise";
    }

    @Override
    public void generate(Results r, Report out) {
        // the run measures noise itself and takes no separate A/A run: its own 1 s A/A (table 3.1) is its check
        out.put("env", r.withOwnFloor("slice-1.json").environment(THRESHOLD));
        Csv settings = r.csv("settings.csv");
        for (String k : List.of("budget_s", "ab_runs", "ab_gap_s", "hog_start_s", "hog_end_s")) out.put(k, settings.row("key", k).get("value"));
        slices(r, out);
        order(NoiseRounds.of(r, "slice-1.json"), out);
        Interval paired = NoiseRounds.of(r, "slice-1.json").ratio(0);
        Interval sequential = Claim.ratio(NoiseRounds.of(r, "seq-b.json").rates(0), NoiseRounds.of(r, "seq-a.json").rates(0));
        out.put("design_table", Md.table(List.of("design (same budget per server)", "A/A ratio", "95% interval", "width"), List.of(
                List.of("paired slices, random order, 1 s", Md.f3(paired.estimate()), interval(paired), pct(paired.width())),
                List.of("sequential rounds (all of A, then all of B), 1 s, paired by index", Md.f3(sequential.estimate()),
                        interval(sequential), pct(sequential.width())))));
        out.put("design_verdict", (sequential.width() > paired.width() ? "wider" : "no wider") + " than the paired slices' ("
                + pct(sequential.width()) + " against " + pct(paired.width()) + ")" + (sequential.contains(1) ? ""
                : ", and it excludes 1: a difference between two identical servers, made by the order of the run"));
        hog(r, paired, out);
        ab(r, settings, out);
        repeats(new Results(r.dir.resolve("hog-repeats")), out);
        NoiseForks.generate(new Results(r.dir.resolve("forks")), out);
        // the section's sentences are a template of their own, beside the report's (experiments/templates/)
        NoiseCalibrated.generate(new Results(r.dir.resolve("calibrated")), r.dir.resolve("../../templates").normalize(), out);
    }

    /**
     * make noise-hog's repeated A/A comparisons under a CPU hog, where a run kept them in
     * hog-repeats/ (aa-N.json): how many called a difference between identical servers, against
     * the one in twenty a 95% interval allows.
     */
    static void repeats(Results hog, Report out) {
        List<String> files = new ArrayList<>();
        for (int n = 1; hog.has("aa-" + n + ".json"); n++) files.add("aa-" + n + ".json");
        if (files.isEmpty()) {
            out.put("repeats_table", "Not measured with these results: `make noise-hog RESULTS_DIR=experiments/results/noise/hog-repeats`"
                    + " keeps its comparisons there.");
            out.put("repeats_verdict", "not measured with these results");
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        int differ = 0;
        for (int i = 0; i < files.size(); i++) {
            NoiseRounds rounds = NoiseRounds.of(hog, files.get(i));
            Interval ratio = rounds.ratio(0);
            String verdict = ratio.low() > 1 ? "lt-b faster" : ratio.high() < 1 ? "lt-b slower" : "no difference";
            if (!ratio.contains(1)) differ++;
            rows.add(List.of(Integer.toString(i + 1), Integer.toString(rounds.count()), Md.f3(ratio.estimate()), interval(ratio), verdict));
        }
        Csv settings = hog.csv("settings.csv");
        RunEnvironment env = hog.json("env.json", RunEnvironment.class);
        out.put("repeats_table", files.size() + " A/A comparisons (`make noise-hog`, " + env.date() + ", commit " + env.commit()
                + "): each a fresh pair of `lt` servers, " + settings.row("key", "rounds").get("value") + " rounds of "
                + settings.row("key", "slice").get("value") + " slices, a busy loop on the servers' core throughout; load average "
                + settings.row("key", "load_before").get("value") + " before, " + settings.row("key", "load_after").get("value")
                + " after.\n\n" + Md.table(List.of("repeat", "rounds", "lt-b / lt-a rate", "95% interval", "verdict"), rows));
        // if every interval erred exactly 5% of the time: the chance of this many errors or more in as many comparisons
        double atLeast = 1;
        for (int k = 0; k < differ; k++) atLeast -= binomial(files.size(), k, 0.05);
        int bound = files.size() / 10; // the lab's target: at most 2 of 20
        out.put("repeats_verdict", differ + " of " + files.size() + " comparisons of identical servers called a difference"
                + " (the lab's bound: at most " + bound + " of " + files.size() + "; " + (differ <= bound ? "met" : "not met") + "); with intervals"
                + " that err exactly 1 time in 20, " + (differ == 0 ? "none would err in " + Md.f1(binomial(files.size(), 0, 0.05) * 100)
                        : differ + " or more would err in " + Md.f1(atLeast * 100)) + "% of such runs");
    }

    /** P(X = k) for X ~ Binomial(n, p). */
    private static double binomial(int n, int k, double p) {
        double c = 1;
        for (int i = 0; i < k; i++) c = c * (n - i) / (i + 1);
        return c * Math.pow(p, k) * Math.pow(1 - p, n - k);
    }

    /** A/A by slice length, all rounds and the first 8 and 16: the interval and its width. */
    private static void slices(Results r, Report out) {
        List<List<String>> rows = new ArrayList<>();
        double[] x = new double[SLICES.length], width = new double[SLICES.length];
        int narrowest = -1;
        for (int i = 0; i < SLICES.length; i++) {
            NoiseRounds rounds = NoiseRounds.of(r, "slice-" + SLICES[i] + ".json");
            List<Integer> firsts = new ArrayList<>();
            for (int k = MedianInterval.MIN_ROUNDS; k < rounds.count(); k *= 2) firsts.add(k);
            firsts.add(rounds.count());
            for (int k : firsts) {
                Interval a = rounds.ratio(k);
                String label = k < rounds.count() ? k + " (the first)" : k + " (all" + (k < MedianInterval.MIN_ROUNDS ? "; fewer than " + MedianInterval.MIN_ROUNDS : "") + ")";
                rows.add(List.of(SLICES[i] + " s", label, Md.f3(a.estimate()), interval(a), pct(a.width()),
                        a.contains(1) ? "contains 1" : "excludes 1: a false difference"));
            }
            Interval all = rounds.ratio(0);
            x[i] = Double.parseDouble(SLICES[i]);
            width[i] = all.width() * 100;
            // an interval from too few rounds is narrow by undercoverage, not by precision: it competes with none
            if (rounds.count() >= MedianInterval.MIN_ROUNDS) {
                if (narrowest < 0 || width[i] < width[narrowest]) narrowest = i;
            }
        }
        out.put("slice_table", Md.table(List.of("slice", "rounds", "A/A ratio", "95% interval", "width", "against 1"), rows));
        out.put("narrowest_slice", narrowest < 0 ? "no slice length (none had " + MedianInterval.MIN_ROUNDS + " rounds)"
                : SLICES[narrowest] + " s slices (" + Md.f1(width[narrowest]) + "% wide; of those with at least " + MedianInterval.MIN_ROUNDS + " rounds)");
        out.chart("noise-width-by-slice.svg", new SvgChart("A/A interval width in the same budget, by slice length", "slice (s, log2)",
                "95% interval width (% of the ratio)").logX().series("lt against lt", x, width).render());
    }

    /** The order bias: B over A in the rounds A went first (a fixed order), in those B went first, and in all. */
    static void order(NoiseRounds rounds, Report out) {
        Interval aFirst = rounds.ratioWhereFirst(rounds.servers.get(0)), bFirst = rounds.ratioWhereFirst(rounds.servers.get(1));
        Interval all = rounds.ratio(0);
        out.put("order_table", Md.table(List.of("rounds", "A/A ratio (B over A)", "95% interval"), List.of(
                List.of("A first (what a fixed order A, B gives)", Md.f3(aFirst.estimate()), interval(aFirst)),
                List.of("B first (a fixed order B, A)", Md.f3(bFirst.estimate()), interval(bFirst)),
                List.of("all, in random order", Md.f3(all.estimate()), interval(all)))));
        boolean apart = aFirst.high() < bFirst.low() || bFirst.high() < aFirst.low();
        out.put("order_verdict", apart
                ? "the two fixed orders give intervals that do not overlap: on this run the slot a server ran in moved its rate,"
                + " and a fixed order would have turned that into a difference between identical servers; random order spreads it"
                + " over both"
                : "the two fixed orders' intervals overlap: this run shows no order bias it can resolve");
    }

    /** Quiet against the hog: the interval, and how far each server's rates spread. */
    private static void hog(Results r, Interval quiet, Report out) {
        NoiseRounds quietRounds = NoiseRounds.of(r, "slice-1.json"), hogRounds = NoiseRounds.of(r, "hog.json");
        Interval hog = hogRounds.ratio(0);
        out.put("hog_table", Md.table(List.of("machine", "A/A ratio", "95% interval", "width", "A's rate, (max − min) / median"), List.of(
                List.of("quiet (slice-1)", Md.f3(quiet.estimate()), interval(quiet), pct(quiet.width()), pct(Stats.relativeSpread(quietRounds.rates(0)))),
                List.of("CPU hog on the servers' core for part of the run", Md.f3(hog.estimate()), interval(hog), pct(hog.width()),
                        pct(Stats.relativeSpread(hogRounds.rates(0)))))));
        out.put("hog_verdict", "with the hog the A/A interval is " + pct(hog.width()) + " wide against " + pct(quiet.width()) + " without it, and "
                + (hog.contains(1) ? "still contains 1: no false difference"
                : "excludes 1: the disturbance reached the verdict, a difference between identical servers"));
    }

    /** The A/B comparison repeated: each run's ratio with its interval, and whether the runs agree. */
    private static void ab(Results r, Csv settings, Report out) {
        int runs = Integer.parseInt(settings.row("key", "ab_runs").get("value"));
        List<List<String>> rows = new ArrayList<>();
        List<Interval> intervals = new ArrayList<>();
        double[] x = new double[runs], est = new double[runs], low = new double[runs], high = new double[runs];
        String names = "";
        for (int i = 0; i < runs; i++) {
            NoiseRounds rounds = NoiseRounds.of(r, "ab-" + (i + 1) + ".json");
            names = rounds.servers.get(1) + " against " + rounds.servers.get(0);
            Interval a = rounds.ratio(0);
            intervals.add(a);
            rows.add(List.of(Integer.toString(i + 1), rounds.started(), Md.f3(a.estimate()), interval(a), pct(a.width())));
            x[i] = i + 1;
            est[i] = a.estimate();
            low[i] = a.low();
            high[i] = a.high();
        }
        out.put("ab_gaps", gaps(r));
        out.put("ab_pair", names);
        out.put("ab_table", Md.table(List.of("run", "started (UTC)", names + ", rate ratio", "95% interval", "width"), rows)
                + "\n\nA compare records the time it writes its JSON, at its end: a run started that time less its slices and its"
                + " servers' warm-ups.");
        boolean disagree = false;
        for (Interval a : intervals) {
            for (Interval b : intervals) disagree |= a.high() < b.low();
        }
        String range = Md.f3(est[Stats.best(est, false)]) + " to " + Md.f3(est[Stats.best(est, true)]);
        out.put("ab_verdict", disagree
                ? "some runs' intervals do not overlap: the ratio depends on the machine's state, and over these " + runs + " runs it"
                + " ranged from " + range + "; one run's interval, however tight, does not make the ratio reproducible"
                : "every run's interval overlaps every other's (estimates " + range + "): the runs agree within their precision");
        out.chart("noise-ab-runs.svg", new SvgChart("The same A/B comparison in separate runs: " + names, "run", "rate ratio")
                .series("estimate", x, est).series("95% low", x, low).series("95% high", x, high).render());
    }

    /** What filled the gaps between the A/B runs (gaps.csv, where the run wrote one): idle, or other work. */
    private static String gaps(Results r) {
        if (!r.has("gaps.csv")) return "The gaps between them were not recorded.";
        List<String> work = new ArrayList<>();
        for (Map<String, String> gap : r.csv("gaps.csv").rows()) {
            String cmd = gap.get("work");
            if (cmd != null && !cmd.isEmpty()) work.add("gap " + gap.get("gap") + ": `" + cmd + "` for " + gap.get("work_s") + " s");
        }
        return work.isEmpty() ? "Nothing else ran in the gaps between them."
                : "Other work filled part of each gap, so each run met the machine as a shared machine is between"
                + " two measurements (" + String.join("; ", work) + "), the rest of each gap idle.";
    }

    private static String interval(Interval i) {
        return "[" + Md.edge(3, i.low(), 1) + ", " + Md.edge(3, i.high(), 1) + "]";
    }

    /** A ratio's width as a percentage: 0.021 → "2.1%". */
    private static String pct(double v) {
        return Md.f1(v * 100) + "%";
    }
}
