package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import niolab.common.results.BenchComparison;
import niolab.common.stats.Comparison;
import niolab.common.stats.Interval;

/**
 * exp-concurrency: keep-alive and short-connection load at each level of connections on LT, ET
 * and MP; QPS, P99 and server CPU per request against connections, from one
 * {@code echo-bench compare} per mode and level (compare-MODE-C.json: paired slices, ratios to
 * LT with intervals).
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class ConcurrencyExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05,
            "which server peaks highest matters at {size} of rate; less, the client's own share of a 2-core machine decides");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    private static final String[] ARCHS = ClassicServers.ARCHS;
    private static final String[] LABELS = ClassicServers.LABELS;
    private static final String[] MODES = {"keepalive", "short"};

    @Override
    public String name() {
        return "concurrency";
    }

    /** The run: the levels of connections, and per mode (MODES' order) and level one compare of LT, ET and MP. */
    record Data(String[] levels, CompareRun[][] runs) {
    }

    /** One mode at one level, over a rate ratio's interval: the highest median and the servers it is not shown ahead of. */
    record Point(Interval[] overLt, int best, List<String> ties) {
    }

    /**
     * One mode: per server and level ([arch][level]) the medians, the points, the spread of one
     * server's slices at one point (median and largest, in %), each server's peak and its level,
     * the best peak with the others' ratios to it at its level ({@code gap}, null without an interval).
     */
    record Mode(double[][] qps, double[][] p99, double[][] cpu, long errors, Point[] points, double medianSpread, double maxSpread,
            double[] peak, int[] peakAt, int best, double bestPeak, Interval[] gap) {
    }

    /**
     * What the run found: per mode, which servers peaked below the highest level and which at it
     * (keep-alive), and MP's keep-alive rate against the better single loop's at that loop's peak.
     */
    record Findings(String[] levels, CompareRun design, List<Mode> modes, List<String> pastPeak, List<String> atTop, int loop,
            double mpRate, double loopRate, Interval mpOverLoop) {
    }

    static Data load(Results r) {
        String[] lv = r.text("levels.txt").trim().split("\\s+");
        CompareRun[][] runs = new CompareRun[MODES.length][lv.length];
        for (int m = 0; m < MODES.length; m++) {
            for (int i = 0; i < lv.length; i++) runs[m][i] = CompareRun.of(r, compareFile(MODES[m], lv[i]), THRESHOLD);
        }
        return new Data(lv, runs);
    }

    static Findings analyse(Data d) {
        String[] lv = d.levels;
        List<Mode> modes = new ArrayList<>();
        for (int m = 0; m < MODES.length; m++) {
            double[][] qps = new double[ARCHS.length][lv.length], p99 = new double[ARCHS.length][lv.length], cpu = new double[ARCHS.length][lv.length];
            long errors = 0;
            double[] spreads = new double[ARCHS.length * lv.length];
            for (int a = 0; a < ARCHS.length; a++) {
                for (int i = 0; i < lv.length; i++) {
                    CompareRun run = d.runs[m][i];
                    BenchComparison.ServerSummary s = run.summary(ARCHS[a]);
                    qps[a][i] = medianRate(run, ARCHS[a]);
                    p99[a][i] = orNaN(s.medianP99Us());
                    cpu[a][i] = orNaN(s.medianCpuUsPerRequest());
                    errors += s.errors();
                    spreads[a * lv.length + i] = Stats.relativeSpread(run.rates(ARCHS[a])) * 100;
                }
            }
            Point[] points = new Point[lv.length];
            for (int i = 0; i < lv.length; i++) {
                CompareRun run = d.runs[m][i];
                double[] col = new double[ARCHS.length];
                Interval[] overLt = new Interval[ARCHS.length];
                for (int a = 0; a < ARCHS.length; a++) {
                    col[a] = qps[a][i];
                    if (a > 0) overLt[a] = run.ratio(ARCHS[a], ARCHS[0], CompareRun.RATE);
                }
                int best = Stats.best(col, true);
                points[i] = new Point(overLt, best, Verdicts.ties(ARCHS[best], List.of(ARCHS), a -> run.ratio(ARCHS[best], a, CompareRun.RATE),
                        run.threshold));
            }
            double[] peak = new double[ARCHS.length], peaks = new double[ARCHS.length];
            int[] peakAt = new int[ARCHS.length];
            for (int a = 0; a < ARCHS.length; a++) {
                peakAt[a] = Stats.best(qps[a], true);
                peak[a] = qps[a][peakAt[a]];
                peaks[a] = medianRate(d.runs[m][peakAt[a]], ARCHS[a]);
            }
            int best = Stats.best(peaks, true);
            Interval[] gap = new Interval[ARCHS.length];
            for (int a = 0; a < ARCHS.length; a++) {
                if (a != best) gap[a] = d.runs[m][peakAt[best]].ratio(ARCHS[a], ARCHS[best], CompareRun.RATE);
            }
            modes.add(new Mode(qps, p99, cpu, errors, points, Stats.median(spreads) / 100, spreads[Stats.best(spreads, true)], peak, peakAt,
                    best, peaks[best], gap));
        }
        int[] kaPeakAt = modes.get(0).peakAt;
        List<List<String>> past = pastPeak(kaPeakAt, lv.length);
        int loop = Stats.best(new double[] {peakRate(d, kaPeakAt, 0), peakRate(d, kaPeakAt, 1)}, true);
        CompareRun run = d.runs[0][kaPeakAt[loop]];
        return new Findings(lv, d.runs[0][0], modes, past.get(0), past.get(1), loop, medianRate(run, ARCHS[2]), medianRate(run, ARCHS[loop]),
                run.ratio(ARCHS[2], ARCHS[loop], CompareRun.RATE));
    }

    /**
     * Whether the run shows more connections only queueing: the servers whose median peak lies
     * below the highest level tried, then those that peaked at it (and may peak beyond it).
     */
    static List<List<String>> pastPeak(int[] peakAt, int levels) {
        List<String> below = new ArrayList<>(), atTop = new ArrayList<>();
        for (int a = 0; a < peakAt.length; a++) (peakAt[a] < levels - 1 ? below : atTop).add(LABELS[a]);
        return List.of(below, atTop);
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static void render(Findings f, Report out) {
        String[] lv = f.levels;
        double[] x = new double[lv.length];
        for (int i = 0; i < lv.length; i++) x[i] = Double.parseDouble(lv[i]);
        for (int m = 0; m < MODES.length; m++) {
            String mode = MODES[m];
            Mode o = f.modes.get(m);
            String what = mode.equals("keepalive") ? "keep-alive" : "short connections";
            List<List<String>> rows = new ArrayList<>();
            for (int i = 0; i < lv.length; i++) {
                List<String> row = new ArrayList<>();
                row.add(lv[i]);
                for (int a = 0; a < ARCHS.length; a++) row.add(Md.f0(o.qps[a][i]));
                for (int a = 0; a < ARCHS.length; a++) row.add(Md.f0(o.p99[a][i]));
                for (int a = 0; a < ARCHS.length; a++) row.add(Md.f1(o.cpu[a][i]));
                Point p = o.points[i];
                for (int a = 1; a < ARCHS.length; a++) row.add(CompareRun.words(p.overLt[a], Comparison.Quantity.RATE, THRESHOLD.value()));
                row.add(Verdicts.bestOrTies(LABELS[p.best], labels(p.ties)));
                rows.add(row);
            }
            List<String> header = new ArrayList<>(List.of("connections", "LT QPS", "ET QPS", "MP QPS", "LT P99 µs", "ET P99 µs",
                    "MP P99 µs", "LT CPU µs/req", "ET CPU µs/req", "MP CPU µs/req", "ET / LT rate, 95% interval",
                    "MP / LT rate, 95% interval", "most QPS (resolved)"));
            out.put(mode + "_table", Md.table(header, rows));
            out.put(mode + "_errors", Long.toString(o.errors));
            // How far apart one server's slices (or runs) of one point are
            out.put(mode + "_noise", Md.f0(o.medianSpread * 100) + "%");
            out.put(mode + "_noise_max", Md.f0(o.maxSpread) + "%");
            SvgChart q = new SvgChart("QPS by connections, " + what, "connections (log2)", "QPS").logX();
            SvgChart l = new SvgChart("P99 by connections, " + what, "connections (log2)", "P99 (µs)").logX();
            for (int a = 0; a < ARCHS.length; a++) {
                q.series(LABELS[a], x, o.qps[a]);
                l.series(LABELS[a], x, o.p99[a]);
                int at = o.peakAt[a];
                out.put(mode + "_peak_" + ARCHS[a], Md.f0(o.qps[a][at]) + " at " + lv[at]);
                out.put(mode + "_one_" + ARCHS[a], Md.f0(o.qps[a][0]));
                out.put(mode + "_top_" + ARCHS[a], Md.f0(o.qps[a][lv.length - 1]));
                out.put(mode + "_cpu_last_" + ARCHS[a], Md.f1(o.cpu[a][lv.length - 1]));
                // share of the server's core in use at the peak: QPS x CPU seconds per request
                out.put(mode + "_util_" + ARCHS[a], Md.f0(o.qps[a][at] * o.cpu[a][at] / 1e4) + "%");
                for (int i = 0; i < lv.length; i++) out.put(mode + "_p99_" + ARCHS[a] + "_" + lv[i], Md.f0(o.p99[a][i]));
                out.put(mode + "_p99_" + ARCHS[a] + "_mid", Md.f0(o.p99[a][middle(lv)]));
                out.put(mode + "_p99_" + ARCHS[a] + "_top", Md.f0(o.p99[a][lv.length - 1]));
            }
            out.chart("concurrency-" + mode + "-qps.svg", q.render());
            out.chart("concurrency-" + mode + "-p99.svg", l.render());
            String gap = peakGap(o, lv);
            out.put(mode + "_peak_gap", gap);
            // the highest median is a direction only where the intervals above say so
            out.put(mode + "_best_peak_line", LABELS[o.best] + "'s, by median; " + gap);
        }
        out.put("levels", String.join(", ", lv));
        out.put("mid_level", lv[middle(lv)]);
        out.put("top_level", lv[lv.length - 1]);
        StringBuilder ka = new StringBuilder(), cpu = new StringBuilder();
        for (int a = 0; a < ARCHS.length; a++) {
            if (a > 0) {
                ka.append(", ");
                cpu.append(", ");
            }
            ka.append(LABELS[a]).append(' ').append(Md.f1(f.modes.get(0).peak[a] / f.modes.get(1).peak[a])).append('×');
            int top = lv.length - 1;
            cpu.append(LABELS[a]).append(' ').append(Md.f1(f.modes.get(1).cpu[a][top] / f.modes.get(0).cpu[a][top])).append('×');
        }
        out.put("keepalive_over_short", ka.toString());
        out.put("short_over_keepalive_cpu", cpu + " at " + lv[lv.length - 1] + " connections");
        out.put("past_peak", String.join(" and ", f.pastPeak));
        out.put("at_top", String.join(" and ", f.atTop));
        out.put("one_at_top", f.atTop.size() == 1);
        CompareRun first = f.design;
        out.put("compare_design", first.design());
        out.put("warmup_s", Md.f2(first.json.config().warmupS()));
        out.put("forked", first.forks() > 1);
        out.put("ratio_method", first.ratioMethod());
        out.put("threshold", THRESHOLD.declared());
        out.put("keepalive_spread", Md.f0(f.modes.get(0).medianSpread * 100));
        out.put("short_spread", Md.f0(f.modes.get(1).medianSpread * 100));
        String loop = LABELS[f.loop];
        out.put("mp_throughput", "At " + lv[f.modes.get(0).peakAt[f.loop]] + " keep-alive connections, where " + loop + " peaked, MP serves "
                + Md.f0(f.mpRate) + " QPS against " + loop + "'s " + Md.f0(f.loopRate) + " (medians): " + (f.mpOverLoop == null
                ? "too few paired rounds for an interval" : Md.ratio(f.mpOverLoop, THRESHOLD.value()) + ", "
                + Comparison.describe(f.mpOverLoop, Comparison.Quantity.RATE, THRESHOLD.value())));
    }

    /** At the level where the mode's best server peaked, each other server's rate against it with its interval. */
    private static String peakGap(Mode o, String[] lv) {
        StringBuilder sb = new StringBuilder("at " + lv[o.peakAt[o.best]] + " connections, where " + LABELS[o.best] + " peaked ("
                + Md.f0(o.bestPeak) + " QPS, median), ");
        boolean firstOther = true;
        for (int a = 0; a < ARCHS.length; a++) {
            if (a == o.best) continue;
            Interval ratio = o.gap[a];
            sb.append(firstOther ? "" : "; ").append(LABELS[a]).append(" against it: ").append(ratio == null
                    ? "no interval (too few paired rounds)" : Md.ratio(ratio, THRESHOLD.value()) + ", "
                    + Comparison.describe(ratio, Comparison.Quantity.RATE, THRESHOLD.value()));
            firstOther = false;
        }
        return sb.toString();
    }

    private static List<String> labels(List<String> archs) {
        List<String> labels = new ArrayList<>();
        for (String a : archs) labels.add(LABELS[List.of(ARCHS).indexOf(a)]);
        return labels;
    }

    /** The level the tail comparison quotes: 64 where the run has it, else the middle one. */
    private static int middle(String[] lv) {
        for (int i = 0; i < lv.length; i++) {
            if (lv[i].equals("64")) return i;
        }
        return lv.length / 2;
    }

    static String compareFile(String mode, String level) {
        return "compare-" + mode + "-" + level + ".json";
    }

    private static double orNaN(Double v) {
        return v == null ? Double.NaN : v;
    }

    private static double peakRate(Data d, int[] peakAt, int arch) {
        return medianRate(d.runs[0][peakAt[arch]], ARCHS[arch]);
    }

    /** The median of a server's slice rates, the figure its ratios are paired from; NaN when it never served. */
    private static double medianRate(CompareRun run, String arch) {
        double[] rates = run.rates(arch);
        return rates.length == 0 ? Double.NaN : Stats.median(rates);
    }
}
