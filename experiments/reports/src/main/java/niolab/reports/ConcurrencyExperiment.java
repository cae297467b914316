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
 */
public final class ConcurrencyExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.05, "which server peaks highest matters at 5% of rate; less, the client's own share of a 2-core machine decides");

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

    @Override
    public void generate(Results r, Report out) {
        String[] lv = r.text("levels.txt").trim().split("\\s+");
        double[] x = new double[lv.length];
        for (int i = 0; i < lv.length; i++) x[i] = Double.parseDouble(lv[i]);
        double[][] peak = new double[MODES.length][ARCHS.length];
        int[][] peakAt = new int[MODES.length][ARCHS.length];
        double[][] cpuAtTop = new double[MODES.length][ARCHS.length];
        double[] medianSpread = new double[MODES.length];
        for (int m = 0; m < MODES.length; m++) {
            String mode = MODES[m];
            String what = mode.equals("keepalive") ? "keep-alive" : "short connections";
            double[][] qps = new double[ARCHS.length][lv.length];
            double[][] p99 = new double[ARCHS.length][lv.length];
            double[][] cpu = new double[ARCHS.length][lv.length];
            long errors = 0;
            double[] spreads = new double[ARCHS.length * lv.length];
            for (int a = 0; a < ARCHS.length; a++) {
                for (int i = 0; i < lv.length; i++) {
                    CompareRun run = CompareRun.of(r, compareFile(mode, lv[i]), THRESHOLD);
                    BenchComparison.ServerSummary s = run.summary(ARCHS[a]);
                    qps[a][i] = medianRate(run, ARCHS[a]);
                    p99[a][i] = orNaN(s.medianP99Us());
                    cpu[a][i] = orNaN(s.medianCpuUsPerRequest());
                    errors += s.errors();
                    spreads[a * lv.length + i] = Stats.relativeSpread(run.rates(ARCHS[a])) * 100;
                }
            }
            List<List<String>> rows = new ArrayList<>();
            for (int i = 0; i < lv.length; i++) {
                List<String> row = new ArrayList<>();
                row.add(lv[i]);
                double[] col = new double[ARCHS.length];
                for (int a = 0; a < ARCHS.length; a++) {
                    row.add(Md.f0(qps[a][i]));
                    col[a] = qps[a][i];
                }
                for (int a = 0; a < ARCHS.length; a++) row.add(Md.f0(p99[a][i]));
                for (int a = 0; a < ARCHS.length; a++) row.add(Md.f1(cpu[a][i]));
                CompareRun run = CompareRun.of(r, compareFile(mode, lv[i]), THRESHOLD);
                for (int a = 1; a < ARCHS.length; a++) row.add(run.words(run.ratio(ARCHS[a], ARCHS[0], CompareRun.RATE), Comparison.Quantity.RATE));
                row.add(resolvedBest(run, col));
                rows.add(row);
            }
            List<String> header = new ArrayList<>(List.of("connections", "LT QPS", "ET QPS", "MP QPS", "LT P99 µs", "ET P99 µs",
                    "MP P99 µs", "LT CPU µs/req", "ET CPU µs/req", "MP CPU µs/req", "ET / LT rate, 95% interval",
                    "MP / LT rate, 95% interval", "most QPS (resolved)"));
            out.put(mode + "_table", Md.table(header, rows));
            out.put(mode + "_errors", Long.toString(errors));
            // How far apart one server's slices (or runs) of one point are
            out.put(mode + "_noise", Md.f0(Stats.median(spreads)) + "%");
            medianSpread[m] = Stats.median(spreads) / 100;
            out.put(mode + "_noise_max", Md.f0(spreads[Stats.best(spreads, true)]) + "%");
            SvgChart q = new SvgChart("QPS by connections, " + what, "connections (log2)", "QPS").logX();
            SvgChart l = new SvgChart("P99 by connections, " + what, "connections (log2)", "P99 (µs)").logX();
            for (int a = 0; a < ARCHS.length; a++) {
                q.series(LABELS[a], x, qps[a]);
                l.series(LABELS[a], x, p99[a]);
                int at = Stats.best(qps[a], true);
                peak[m][a] = qps[a][at];
                peakAt[m][a] = at;
                out.put(mode + "_peak_" + ARCHS[a], Md.f0(qps[a][at]) + " at " + lv[at]);
                out.put(mode + "_one_" + ARCHS[a], Md.f0(qps[a][0]));
                out.put(mode + "_top_" + ARCHS[a], Md.f0(qps[a][lv.length - 1]));
                out.put(mode + "_cpu_last_" + ARCHS[a], Md.f1(cpu[a][lv.length - 1]));
                cpuAtTop[m][a] = cpu[a][lv.length - 1];
                // share of the server's core in use at the peak: QPS x CPU seconds per request
                out.put(mode + "_util_" + ARCHS[a], Md.f0(qps[a][at] * cpu[a][at] / 1e4) + "%");
                for (int i = 0; i < lv.length; i++) out.put(mode + "_p99_" + ARCHS[a] + "_" + lv[i], Md.f0(p99[a][i]));
                out.put(mode + "_p99_" + ARCHS[a] + "_mid", Md.f0(p99[a][middle(lv)]));
                out.put(mode + "_p99_" + ARCHS[a] + "_top", Md.f0(p99[a][lv.length - 1]));
            }
            out.chart("concurrency-" + mode + "-qps.svg", q.render());
            out.chart("concurrency-" + mode + "-p99.svg", l.render());
            int best = Stats.best(peak[m], true);
            out.put(mode + "_best_peak_line", LABELS[best] + " (" + Md.versus(peak[m], best, LABELS) + "; medians)");
        }
        out.put("levels", String.join(", ", lv));
        out.put("mid_level", lv[middle(lv)]);
        out.put("top_level", lv[lv.length - 1]);
        StringBuilder ka = new StringBuilder();
        for (int a = 0; a < ARCHS.length; a++) {
            if (a > 0) ka.append(", ");
            ka.append(LABELS[a]).append(' ').append(Md.f1(peak[0][a] / peak[1][a])).append('×');
        }
        out.put("keepalive_over_short", ka.toString());
        out.put("keepalive_past_peak", pastPeak(peakAt[0], lv));
        shortOverKeepaliveCpu(out, cpuAtTop, lv[lv.length - 1]);
        CompareRun first = CompareRun.of(r, compareFile("keepalive", lv[0]), THRESHOLD);
        BenchComparison.Config c = first.json.config();
        out.put("design_point", "one `echo-bench compare` of the three servers per mode and level: " + first.design()
                + ", after " + Md.f2(c.warmupS()) + " s of load on each server first (the warm-up, not counted); "
                + (first.forks() > 1 ? "each fork a fresh process of every server" : "one server per architecture and mode, up across the levels")
                + ". The tables show each server's median slice; the ratio columns the ratio to LT: " + first.ratioMethod());
        pairedSentences(r, out, lv, peakAt, medianSpread);
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

    /** The server with the highest median rate when its interval against every other lies beyond the report's threshold, else which ones tie. */
    private static String resolvedBest(CompareRun run, double[] qps) {
        int best = Stats.best(qps, true);
        List<String> ties = Verdicts.ties(ARCHS[best], List.of(ARCHS), a -> run.ratio(ARCHS[best], a, CompareRun.RATE), run.threshold);
        List<String> labels = new ArrayList<>();
        for (String a : ties) labels.add(LABELS[List.of(ARCHS).indexOf(a)]);
        return Verdicts.bestOrTies(LABELS[best], labels);
    }

    /**
     * Whether the run shows more connections only queueing: a server whose median peak lies below
     * the highest level tried; one that peaked at the highest level may peak beyond it.
     */
    static String pastPeak(int[] peakAt, String[] lv) {
        List<String> below = new ArrayList<>(), atTop = new ArrayList<>();
        for (int a = 0; a < peakAt.length; a++) (peakAt[a] < lv.length - 1 ? below : atTop).add(LABELS[a]);
        String top = lv[lv.length - 1];
        if (below.isEmpty()) {
            return "Every server peaked at the highest level tried, so this run shows no point past which more connections only"
                    + " queue: each peak lies at or beyond " + top + " connections";
        }
        String past = String.join(" and ", below) + " peaked below the highest level tried and gained nothing from more"
                + " connections past that (medians): those can only queue";
        return atTop.isEmpty() ? past : past + "; " + String.join(" and ", atTop) + " peaked at the highest level tried, so "
                + (atTop.size() == 1 ? "its peak lies" : "their peaks lie") + " at or beyond " + top + " connections";
    }

    /**
     * The sentences that compare: at the level where the best server of a
     * mode peaked, each other server's rate against it with its interval; MP's keep-alive rate
     * against the better loop's at that loop's peak; how far one server's slices are apart.
     */
    private static void pairedSentences(Results r, Report out, String[] lv, int[][] peakAt, double[] medianSpread) {
        out.put("trust_summary", "Spread of one server's slices at one point: " + Md.f0(medianSpread[0] * 100) + "% (keep-alive), "
                + Md.f0(medianSpread[1] * 100) + "% (short), median over the points; ratios paired by round, with intervals");
        out.put("trust", "Each point is one compare: in every round the three servers run one after the other in a fresh random"
                + " order, so the machine's drift and the slot order reach all three alike, and a ratio to LT is "
                + CompareRun.of(r, compareFile("keepalive", lv[0]), THRESHOLD).ratioMethod() + "; a direction is named only where that interval lies wholly beyond the report's threshold (" + THRESHOLD.declared() + "), \"the same\" where it lies wholly within it"
                + " (columns \"ET / LT\" and \"MP / LT\"; \"most QPS (resolved)\" names a server only when it beats both others"
                + " beyond their intervals). The warm-up is explicit: load on each server before a compare's first round, not"
                + " counted. One server's slices at one point differ by " + Md.f0(medianSpread[0] * 100) + "% in keep-alive QPS"
                + " (median over all points) and by " + Md.f0(medianSpread[1] * 100) + "% with short connections: the spread the"
                + " pairing cancels, not the precision of a ratio, which its interval gives.");
        for (int m = 0; m < MODES.length; m++) {
            double[] peaks = new double[ARCHS.length];
            CompareRun[] atPeak = new CompareRun[ARCHS.length];
            for (int a = 0; a < ARCHS.length; a++) {
                atPeak[a] = CompareRun.of(r, compareFile(MODES[m], lv[peakAt[m][a]]), THRESHOLD);
                peaks[a] = medianRate(atPeak[a], ARCHS[a]);
            }
            int best = Stats.best(peaks, true);
            StringBuilder sb = new StringBuilder("at " + lv[peakAt[m][best]] + " connections, where " + LABELS[best] + " peaked ("
                    + Md.f0(peaks[best]) + " QPS, median), ");
            boolean firstOther = true;
            for (int a = 0; a < ARCHS.length; a++) {
                if (a == best) continue;
                Interval ratio = atPeak[best].ratio(ARCHS[a], ARCHS[best], CompareRun.RATE);
                sb.append(firstOther ? "" : "; ").append(LABELS[a]).append(" against it: ").append(ratio == null
                        ? "no interval (too few paired rounds)" : Md.ratio(ratio, atPeak[best].threshold) + ", "
                        + Comparison.describe(ratio, Comparison.Quantity.RATE, atPeak[best].threshold));
                firstOther = false;
            }
            out.put(MODES[m] + "_peak_gap", sb.toString());
            // the highest median is a direction only where the intervals above say so
            out.put(MODES[m] + "_best_peak_line", LABELS[best] + "'s, by median; " + sb);
        }
        int loop = Stats.best(new double[] {peakRate(r, lv, peakAt, 0), peakRate(r, lv, peakAt, 1)}, true);
        CompareRun run = CompareRun.of(r, compareFile("keepalive", lv[peakAt[0][loop]]), THRESHOLD);
        Interval mp = run.ratio(ARCHS[2], ARCHS[loop], CompareRun.RATE);
        out.put("mp_throughput", "At " + lv[peakAt[0][loop]] + " keep-alive connections, where " + LABELS[loop] + " peaked, MP serves "
                + Md.f0(medianRate(run, ARCHS[2])) + " QPS against " + LABELS[loop] + "'s " + Md.f0(medianRate(run, ARCHS[loop]))
                + " (medians): " + (mp == null
                ? "too few paired rounds for an interval" : Md.ratio(mp, run.threshold) + ", "
                + Comparison.describe(mp, Comparison.Quantity.RATE, run.threshold)));
    }

    private static double peakRate(Results r, String[] lv, int[][] peakAt, int arch) {
        return medianRate(CompareRun.of(r, compareFile("keepalive", lv[peakAt[0][arch]]), THRESHOLD), ARCHS[arch]);
    }

    /** The median of a server's slice rates, the figure its ratios are paired from; NaN when it never served. */
    private static double medianRate(CompareRun run, String arch) {
        double[] rates = run.rates(arch);
        return rates.length == 0 ? Double.NaN : Stats.median(rates);
    }

    /** Server CPU per short-connection request against keep-alive's, at the top level. */
    private static void shortOverKeepaliveCpu(Report out, double[][] cpuAtTop, String top) {
        StringBuilder cpu = new StringBuilder();
        for (int a = 0; a < ARCHS.length; a++) {
            if (a > 0) cpu.append(", ");
            cpu.append(LABELS[a]).append(' ').append(Md.f1(cpuAtTop[1][a] / cpuAtTop[0][a])).append('×');
        }
        out.put("short_over_keepalive_cpu", cpu + " at " + top + " connections");
    }
}
