package niolab.reports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import niolab.common.results.BenchComparison;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import niolab.common.stats.Quantiles;

/**
 * exp-noise 3.9, from `make noise-calibrate` (scripts/noise-calibrate.sh) where a run kept it in
 * noise/calibrated/: the share of A/A runs that call a difference, how often one vt-against-lt
 * run's interval holds another's estimate, the share of runs that call a slowdown calibrated to a
 * measured ratio slower, and what the runs until decided took. Every interval is recomputed here
 * from the slices ({@link CompareRun#forkRatio}), every verdict with {@link Comparison#verdict}
 * against the report's declared threshold; the section's sentences are the template
 * {@value #TEMPLATE}'s.
 */
final class NoiseCalibrated {
    static final String TEMPLATE = "noise-calibrated.md";
    /** The lab's targets: A/A runs calling a difference, at most; slowdowns called slower, at least. */
    static final double FALSE_CALL_TARGET = 0.05, POWER_TARGET = NoiseForks.POWER_TARGET;
    /** The normal quantile of a two-sided 95% interval, for {@link #wilson}. */
    private static final double Z95 = 1.959963984540054;

    private NoiseCalibrated() {}

    /**
     * Puts the case {@code calibrated_run}; where it ran, {@code calibrated} (the section from
     * {@code templates}' fragment) and the four findings exp-noise's verdict quotes.
     */
    static void generate(Results calibrated, Path templates, Report out) {
        out.put("calibrated_run", calibrated.has("settings.csv"));
        if (!calibrated.has("settings.csv")) return;
        Csv settings = calibrated.csv("settings.csv");
        Threshold threshold = NoiseExperiment.THRESHOLD;
        Report section = new Report();
        RunEnvironment env = calibrated.json("env.json", RunEnvironment.class);
        for (String k : List.of("forks", "rounds", "slice", "warmup", "connections", "max_time", "target_ratio", "tolerance", "work_ns",
                "work_ratio", "load_before", "load_after", "nice", "fork_gap")) {
            section.put(k, value(settings, k));
        }
        section.put("date", env.date()).put("commit", env.commit()).put("threshold", threshold.percent());
        String interference = calibrated.interference(calibrated.files("*.json"));
        section.put("interference", interference == null ? "not recorded" : interference);

        double workRatio = Double.parseDouble(value(settings, "work_ratio")), target = Double.parseDouble(value(settings, "target_ratio"));
        double tolerance = Double.parseDouble(value(settings, "tolerance"));
        section.put("work_met", workMet(workRatio, target, tolerance));
        section.put("work_ratio_f3", Md.f3(workRatio)).put("target_ratio_f3", Md.f3(target));
        List<List<String>> pilots = new ArrayList<>();
        for (Map<String, String> row : calibrated.csv("calibration.csv").rows()) {
            pilots.add(List.of(row.get("step"), row.get("work_ns"), Md.f3(Double.parseDouble(row.get("ratio")))));
        }
        section.put("calibration_table", Md.table(List.of("pilot", "--work-ns", "slow / lt rate"), pilots));

        List<List<String>> rows = new ArrayList<>();
        Share aa = share(calibrated, "aa", "lt-b", "lt-a", threshold.value(), true, rows);
        Share slow = share(calibrated, "slow", "slow", "lt", threshold.value(), false, rows);
        List<Interval> vt = intervals(calibrated, "vt", "vt", "lt", threshold.value(), rows);
        NoiseForks.Design coverage = new NoiseForks.Design("vt against lt", vt, List.of(), List.of());
        section.put("runs_table", Md.table(List.of("run", "ratio, 95% interval", "verdict"), rows));
        section.put("aa", aa.sentence("called a difference", FALSE_CALL_TARGET, false));
        section.put("slow", slow.sentence("called slower", POWER_TARGET, true) + "; their median ratio "
                + (slow.estimates.isEmpty() ? "–" : Md.f3(Quantiles.median(toArray(slow.estimates)))));
        section.put("coverage", coverageSentence(coverage));
        List<Until> until = untilRuns(calibrated);
        section.put("until_table", untilTable(until));
        section.put("until", untilSentence(until));
        out.put("calibrated", section.fill(read(templates.resolve(TEMPLATE)), "templates/" + TEMPLATE));
        for (String k : List.of("aa", "coverage", "slow", "until")) out.put("calibrated_" + k, section.values.get(k));
    }

    /** Whether the calibration reached its target (if not, the template says what the slowdown runs measure instead). */
    static boolean workMet(double ratio, double target, double tolerance) {
        return Math.abs(ratio - target) <= tolerance + 1e-9;
    }

    /** How many of a kind's runs were called, out of those with an interval, and their estimates. */
    record Share(int called, int runs, List<Double> estimates) {
        /**
         * "3 of 20 runs called a difference (15.0%, 95% Wilson interval 5.2% to 36.0%; target: at most 5%, not met)": met or
         * not met only where the whole interval says so, else undecided at this number of runs, so that few runs never count
         * in the target's favour.
         */
        String sentence(String what, double target, boolean atLeast) {
            if (runs == 0) return "no run with an interval";
            double share = (double) called / runs;
            double[] w = wilson(called, runs);
            boolean met = atLeast ? w[0] >= target : w[1] <= target;
            boolean notMet = atLeast ? w[1] < target : w[0] > target;
            return called + " of " + runs + " runs " + what + " (" + Md.f1(share * 100) + "%, 95% Wilson interval " + Md.f1(w[0] * 100)
                    + "% to " + Md.f1(w[1] * 100) + "%; target: " + (atLeast ? "at least " : "at most ") + Md.f0(target * 100) + "%, "
                    + (met ? "met" : notMet ? "not met" : "undecided at " + runs + " runs") + ")";
        }
    }

    /** The runs KIND-1.json, KIND-2.json, ...: how many call {@code numer} different from (A/A) or slower than {@code denom}. */
    static Share share(Results r, String kind, String numer, String denom, double threshold, boolean eitherWay, List<List<String>> rows) {
        int called = 0;
        List<Interval> intervals = intervals(r, kind, numer, denom, threshold, rows);
        List<Double> estimates = new ArrayList<>();
        for (Interval i : intervals) {
            if (isCalled(Comparison.verdict(i, threshold), eitherWay)) called++;
            estimates.add(i.estimate());
        }
        return new Share(called, intervals.size(), estimates);
    }

    /** A/A: faster or slower is a call; a slowdown: only slower. */
    static boolean isCalled(Comparison.Verdict v, boolean eitherWay) {
        return v == Comparison.Verdict.BELOW || (eitherWay && v == Comparison.Verdict.ABOVE);
    }

    /** Each run's rate interval of {@code numer} over {@code denom}, a row each added to {@code rows}; runs with too few rounds left out. */
    private static List<Interval> intervals(Results r, String kind, String numer, String denom, double threshold, List<List<String>> rows) {
        List<Interval> found = new ArrayList<>();
        for (int n = 1; r.has(kind + "-" + n + ".json"); n++) {
            ForkInterval f = CompareRun.of(r, kind + "-" + n + ".json", NoiseExperiment.THRESHOLD).forkRatio(numer, denom, CompareRun.RATE);
            if (f == null) {
                rows.add(List.of(kind + "-" + n, "too few paired rounds", "–"));
                continue;
            }
            found.add(f.ratio());
            rows.add(List.of(kind + "-" + n, Md.interval(f.ratio(), 1, 1 - threshold, 1 + threshold),
                    Comparison.verdict(f.ratio(), threshold).name().toLowerCase(Locale.ROOT)));
        }
        return found;
    }

    /** "36 of 90 ordered pairs (40%), short of the 80% target". */
    static String coverageSentence(NoiseForks.Design d) {
        if (d.runs().size() < 2) return "fewer than two runs with an interval, no pair to compare";
        boolean met = d.share() >= NoiseForks.COVERAGE_TARGET;
        return "a run's interval held another run's estimate in " + d.covering() + " of " + d.pairs() + " ordered pairs ("
                + Md.f0(d.share() * 100) + "%; target: at least " + Md.f0(NoiseForks.COVERAGE_TARGET * 100) + "%, " + (met ? "met" : "not met") + ")";
    }

    /** One run until decided: its time as the script measured it (NaN if unrecorded), looks, forks and its rate ratio as compare gave it. */
    record Until(String run, double seconds, Integer looks, Integer forks, BenchComparison.Ratio rate) {
        boolean slower() {
            return rate != null && "below".equals(rate.verdict());
        }
    }

    private static List<Until> untilRuns(Results r) {
        Map<String, Map<String, String>> times = new HashMap<>();
        for (Map<String, String> row : r.csv("runs.csv").rows()) times.put(row.get("run"), row);
        List<Until> runs = new ArrayList<>();
        for (int n = 1; r.has("until-" + n + ".json"); n++) {
            String run = "until-" + n;
            BenchComparison json = r.json(run + ".json", BenchComparison.class);
            Map<String, String> time = times.get(run);
            List<BenchComparison.Comparison> comparisons = json.summary().comparisons();
            runs.add(new Until(run, time == null ? Double.NaN : Double.parseDouble(time.get("seconds")), json.summary().looks(),
                    json.summary().forks(), comparisons.isEmpty() ? null : comparisons.get(0).rate()));
        }
        return runs;
    }

    private static String untilTable(List<Until> runs) {
        if (runs.isEmpty()) return "No run until decided was kept.";
        List<List<String>> rows = new ArrayList<>();
        for (Until u : runs) {
            BenchComparison.Ratio rate = u.rate();
            rows.add(List.of(u.run(), Double.isNaN(u.seconds()) ? "–" : Md.f1(u.seconds()), orDash(u.looks()), orDash(u.forks()),
                    rate == null ? "no ratio" : Md.f3(rate.estimate()) + " [" + Md.f3(rate.low()) + ", " + Md.f3(rate.high()) + "]",
                    rate == null || rate.verdict() == null ? "–" : rate.verdict()));
        }
        return Md.table(List.of("run", "seconds", "looks", "forks", "slow / lt rate, interval at its last look", "verdict"), rows);
    }

    /** "2 of 3 runs called slower, in a median of 95 s (the longest 140 s)". */
    static String untilSentence(List<Until> runs) {
        if (runs.isEmpty()) return "no run kept";
        int slower = 0;
        List<Double> seconds = new ArrayList<>();
        for (Until u : runs) {
            if (u.slower()) slower++;
            if (!Double.isNaN(u.seconds())) seconds.add(u.seconds());
        }
        String time = seconds.isEmpty() ? "their times not recorded"
                : "in a median of " + Md.f0(Quantiles.median(toArray(seconds))) + " s (the longest " + Md.f0(Collections.max(seconds)) + " s)";
        return slower + " of " + runs.size() + " runs called slower, " + time;
    }

    /**
     * The Wilson score interval of a binomial share, {@code k} of {@code n}, at 95%: unlike the
     * normal one it stays within [0, 1] and keeps its coverage near 0 and 1, where these shares lie.
     */
    static double[] wilson(int k, int n) {
        double p = (double) k / n, z2 = Z95 * Z95;
        double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
        double half = Z95 / (1 + z2 / n) * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
        // at 0 of n and n of n the edge is exactly 0 or 1; the arithmetic would leave it a rounding away
        return new double[] {k == 0 ? 0 : centre - half, k == n ? 1 : centre + half};
    }

    private static String orDash(Integer v) {
        return v == null ? "–" : v.toString();
    }

    private static String value(Csv settings, String key) {
        Map<String, String> row = settings.row("key", key);
        return row == null || row.get("value") == null ? "" : row.get("value");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static double[] toArray(List<Double> v) {
        double[] a = new double[v.size()];
        for (int i = 0; i < a.length; i++) a[i] = v.get(i);
        return a;
    }
}
