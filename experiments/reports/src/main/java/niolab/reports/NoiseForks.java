package niolab.reports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import niolab.common.stats.Quantiles;

/**
 * exp-noise 3.7 and 3.8, from `make noise-forks` (scripts/noise-forks.sh) where a run kept them in
 * noise/forks/: whether one run's interval holds the next run's median with one fork and with
 * several (calibration), and what share of runs calls a calibrated slowdown slower, beside the
 * share of A/A runs that call anything (power). Every interval is recomputed here from the slices
 * ({@link CompareRun#forkRatio}, lab-common's {@link ForkInterval}), every verdict with
 * {@link Comparison#verdict}: the rule echo-bench compare applies.
 */
final class NoiseForks {
    /** The lab's targets: runs whose interval holds another run's median; slowdowns called; A/A alarms. */
    static final double COVERAGE_TARGET = 0.80, POWER_TARGET = 0.90, FALSE_ALARM_TARGET = 0.05;
    /** The slowdown the power target is stated for, in percent. */
    static final int POWER_TARGET_SLOWDOWN = 5;

    private NoiseForks() {}

    /**
     * Puts the cases and figures of tables 3.7 and 3.8; their sentences are exp-noise.md's:
     * {@code forks_measured} says whether the study ran, {@code power_case} whether its power runs
     * were kept ("measured", "no_runs", "no_study").
     */
    static void generate(Results forks, Report out) {
        out.put("forks_measured", forks.has("settings.csv"));
        if (!forks.has("settings.csv")) {
            out.put("power_case", "no_study");
            for (String k : List.of("calibration_verdict", "power_verdict")) out.put(k, "not measured with these results");
            return;
        }
        Csv settings = forks.csv("settings.csv");
        Map<String, Double> seconds = new LinkedHashMap<>();
        Map<String, String> finished = new LinkedHashMap<>();
        for (Map<String, String> row : forks.csv("runs.csv").rows()) {
            seconds.put(row.get("run"), Double.parseDouble(row.get("seconds")));
            finished.put(row.get("run"), row.get("finished"));
        }
        RunEnvironment env = forks.has("env.json") ? forks.json("env.json", RunEnvironment.class) : null;
        out.put("forks_env", env != null);
        out.put("forks_date", env == null ? "" : env.date());
        out.put("forks_commit", env == null ? "" : env.commit());
        for (String k : List.of("cycles", "gap_s", "connections", "slice", "nice", "load_before", "load_after", "lt_rate", "rounds_fn")) {
            out.put("forks_" + k, value(settings, k));
        }
        int forkCount = Integer.parseInt(value(settings, "forks"));
        out.put("forks_count", Integer.toString(forkCount));
        calibration(forks, forkCount, Integer.parseInt(value(settings, "rounds_f1")), Integer.parseInt(value(settings, "rounds_fn")),
                seconds, finished, out);
        power(forks, settings, seconds, out);
    }

    /** One design of the calibration: its runs' intervals, how many ordered pairs cover, what a run costs. */
    record Design(String label, List<Interval> runs, List<Double> seconds, List<Double> betweenShares) {
        /** Ordered pairs (i, j), i != j, whose run-i interval holds run j's estimate. */
        int covering() {
            int n = 0;
            for (int i = 0; i < runs.size(); i++) {
                for (int j = 0; j < runs.size(); j++) {
                    if (i != j && runs.get(i).contains(runs.get(j).estimate())) n++;
                }
            }
            return n;
        }

        int pairs() {
            return runs.size() * (runs.size() - 1);
        }

        double share() {
            return pairs() == 0 ? Double.NaN : (double) covering() / pairs();
        }

        double medianSeconds() {
            return Quantiles.median(toArray(seconds));
        }
    }

    static void calibration(Results forks, int forkCount, int roundsF1, int roundsFn, Map<String, Double> seconds,
            Map<String, String> finished, Report out) {
        List<List<String>> rows = new ArrayList<>();
        List<Design> designs = new ArrayList<>();
        for (int f : forkCount == 1 ? new int[] {1} : new int[] {1, forkCount}) {
            Design d = new Design(f + (f == 1 ? " fork of " + roundsF1 : " forks of " + roundsFn) + " rounds", new ArrayList<>(),
                    new ArrayList<>(), new ArrayList<>());
            for (int cycle = 1; forks.has("cal-f" + f + "-" + cycle + ".json"); cycle++) {
                String run = "cal-f" + f + "-" + cycle;
                ForkInterval r = CompareRun.of(forks, run + ".json", NoiseExperiment.THRESHOLD).forkRatio("vt", "lt", CompareRun.RATE);
                if (r == null) continue; // too few rounds in which vt and lt both served

                d.runs.add(r.ratio());
                d.seconds.add(seconds.getOrDefault(run, Double.NaN));
                if (!Double.isNaN(r.betweenShare())) d.betweenShares.add(r.betweenShare());
                rows.add(List.of(d.label, Integer.toString(cycle), finished.getOrDefault(run, "–"), Md.interval(r.ratio()),
                        Md.f1(r.ratio().width() * 100) + "%", Double.isNaN(r.betweenShare()) ? "–" : Md.f0(r.betweenShare() * 100) + "%",
                        Md.f0(d.seconds.get(d.seconds.size() - 1))));
            }
            if (!d.runs.isEmpty()) designs.add(d);
        }
        out.put("fork_method", ForkInterval.METHOD);
        out.put("calibration_rows", Md.table(List.of("design", "cycle", "finished (UTC)", "vt / lt rate, 95% interval", "width",
                "variance between forks", "seconds"), rows));
        out.put("calibration_summary", Md.table(List.of("design", "runs", "ordered pairs whose run-i interval holds run j's estimate", "share",
                        "median seconds per run"), summaryRows(designs)));
        out.put("calibration_verdict", calibrationVerdict(designs));
    }

    private static List<List<String>> summaryRows(List<Design> designs) {
        List<List<String>> rows = new ArrayList<>();
        for (Design d : designs) {
            rows.add(List.of(d.label, Integer.toString(d.runs.size()), d.covering() + " of " + d.pairs(), Md.f0(d.share() * 100) + "%",
                    Md.f0(d.medianSeconds())));
        }
        return rows;
    }

    /** Which designs met the coverage target, and the cheapest of them. */
    static String calibrationVerdict(List<Design> designs) {
        if (designs.isEmpty()) return "no calibration run was kept";
        List<String> parts = new ArrayList<>();
        Design cheapest = null;
        for (Design d : designs) {
            if (d.runs.size() < 2) {
                parts.add(d.label + ": one run, no pair to compare");
                continue;
            }
            boolean met = d.share() >= COVERAGE_TARGET;
            parts.add(d.label + ": " + d.covering() + " of " + d.pairs() + " ordered pairs (" + Md.f0(d.share() * 100) + "%), "
                    + (met ? "meeting" : "short of") + " the " + Md.f0(COVERAGE_TARGET * 100) + "% target, at a median "
                    + Md.f0(d.medianSeconds()) + " s per run");
            if (met && (cheapest == null || d.medianSeconds() < cheapest.medianSeconds())) cheapest = d;
        }
        String verdict = String.join("; ", parts);
        return verdict + (cheapest == null ? "; no design met the target on this run"
                : "; the cheapest design that met it: " + cheapest.label);
    }

    /**
     * One slowdown's runs: how many called B slower (or, for A/A, anything) under each threshold
     * rule, the fixed 2% (today's default) and the A/A-floor rule it replaced.
     */
    record Level(int slowdownPercent, long workNs, List<Interval> ratios, List<Double> thresholds, List<Double> seconds) {
        int called(boolean floorRule) {
            int n = 0;
            for (int i = 0; i < ratios.size(); i++) {
                Comparison.Verdict v = Comparison.verdict(ratios.get(i), floorRule ? thresholds.get(i) : Comparison.MIN_THRESHOLD);
                if (slowdownPercent == 0 ? v == Comparison.Verdict.ABOVE || v == Comparison.Verdict.BELOW : v == Comparison.Verdict.BELOW) n++;
            }
            return n;
        }
    }

    static void power(Results forks, Csv settings, Map<String, Double> seconds, Report out) {
        String[] slowdowns = value(settings, "slowdowns").trim().split("\\s+");
        String[] work = value(settings, "work_ns").trim().split("\\s+");
        List<Level> levels = new ArrayList<>();
        for (int i = 0; i < slowdowns.length && i < work.length && !work[i].isEmpty(); i++) {
            Level level = new Level(Integer.parseInt(slowdowns[i]), Long.parseLong(work[i]), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            for (int cycle = 1; forks.has("power-" + slowdowns[i] + "-" + cycle + ".json"); cycle++) {
                String run = "power-" + slowdowns[i] + "-" + cycle;
                CompareRun compare = CompareRun.of(forks, run + ".json", NoiseExperiment.THRESHOLD);
                ForkInterval aa = compare.forkRatio("lt~aa", "lt", CompareRun.RATE), slow = compare.forkRatio("slow", "lt", CompareRun.RATE);
                if (aa == null || slow == null) continue; // too few paired rounds: no floor or no ratio to judge
                level.ratios.add(slow.ratio());
                // the former default, kept to show what it did: the larger of 2% and the twin's reach from 1
                level.thresholds.add(Math.max(Comparison.MIN_THRESHOLD, aa.ratio().reachFrom(1)));
                level.seconds.add(seconds.getOrDefault(run, Double.NaN));
            }
            if (!level.ratios.isEmpty()) levels.add(level);
        }
        out.put("power_case", levels.isEmpty() ? "no_runs" : "measured");
        if (levels.isEmpty()) {
            out.put("power_verdict", "not measured with these results");
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        for (Level l : levels) {
            double[] est = new double[l.ratios.size()], thr = new double[l.thresholds.size()];
            for (int i = 0; i < est.length; i++) est[i] = l.ratios.get(i).estimate();
            for (int i = 0; i < thr.length; i++) thr[i] = l.thresholds.get(i) * 100;
            String what = l.slowdownPercent == 0 ? "called a difference" : "called slower";
            rows.add(List.of(l.slowdownPercent == 0 ? "0 (A/A)" : l.slowdownPercent + "%", Long.toString(l.workNs),
                    Integer.toString(l.ratios.size()), Md.f3(Quantiles.median(est)), "±" + Md.f1(Quantiles.median(thr)) + "%",
                    l.called(true) + " of " + l.ratios.size() + " " + what, l.called(false) + " of " + l.ratios.size() + " " + what,
                    Md.f0(Quantiles.median(toArray(l.seconds)))));
        }
        out.put("power_rows", Md.table(List.of("nominal slowdown", "--work-ns", "runs", "median ratio (slow / lt)", "median A/A-floor threshold",
                "A/A-floor rule", "fixed 2% threshold", "median seconds per run"), rows));
        out.put("power_verdict", powerVerdict(levels));
    }

    /** The targets, from the levels kept: the 5% slowdown called slower, A/A false alarms, by the fixed 2% rule. */
    static String powerVerdict(List<Level> levels) {
        List<String> parts = new ArrayList<>();
        for (Level l : levels) {
            int n = l.ratios.size();
            int fixed = l.called(false), floor = l.called(true);
            if (l.slowdownPercent == 0) {
                parts.add("A/A: a false alarm in " + fixed + " of " + n + " runs with a fixed 2% and " + floor + " of " + n + " by the A/A-floor"
                        + " rule (target: at most " + Md.f0(FALSE_ALARM_TARGET * 100) + "%; " + (fixed <= FALSE_ALARM_TARGET * n ? "met" : "not met")
                        + " with the fixed 2%)");
                continue;
            }
            String level = "a nominal " + l.slowdownPercent + "% slowdown (measured " + measured(l) + ")";
            if (l.slowdownPercent == POWER_TARGET_SLOWDOWN) {
                parts.add(level + ": called slower in " + fixed + " of " + n + " runs with a fixed 2% and " + floor + " of " + n
                        + " by the A/A-floor rule (target: at least " + Md.f0(POWER_TARGET * 100) + "%; "
                        + (fixed >= POWER_TARGET * n ? "met" : "not met") + " with the fixed 2%)");
            } else {
                parts.add(level + ": called slower in " + fixed + " of " + n + " (fixed 2%), " + floor + " of " + n + " (A/A-floor rule)");
            }
        }
        return String.join("; ", parts);
    }

    /** "7%, median ratio 0.930": what a level's slowdown was, from its runs' estimates. */
    private static String measured(Level l) {
        double[] est = new double[l.ratios.size()];
        for (int i = 0; i < est.length; i++) est[i] = l.ratios.get(i).estimate();
        double median = Quantiles.median(est);
        return Md.f0((1 - median) * 100) + "%, median ratio " + Md.f3(median);
    }

    private static String value(Csv settings, String key) {
        Map<String, String> row = settings.row("key", key);
        return row == null || row.get("value") == null ? "" : row.get("value");
    }

    private static double[] toArray(List<Double> v) {
        double[] a = new double[v.size()];
        for (int i = 0; i < a.length; i++) a[i] = v.get(i);
        return a;
    }
}
