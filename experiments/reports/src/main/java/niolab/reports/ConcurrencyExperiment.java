package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;

/**
 * exp-concurrency: keep-alive and short-connection runs at 1, 2, 4 ... 256 connections per
 * architecture; QPS, P99 and server CPU per request against connections (medians of the runs).
 */
public final class ConcurrencyExperiment implements Experiment {
    private static final String[] ARCHS = ShortRunExperiment.ARCHS;
    private static final String[] LABELS = ShortRunExperiment.LABELS;
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
        double[][] cpuAtTop = new double[MODES.length][ARCHS.length];
        double[] medianSpread = new double[MODES.length];
        int firstSlowest = 0, points = 0, runs = 0;
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
                    BenchReport b = r.bench(mode + "-" + ARCHS[a] + "-" + lv[i] + ".json");
                    qps[a][i] = Stats.median(b.column(Column.QPS));
                    p99[a][i] = Stats.median(b.column(Column.P99));
                    cpu[a][i] = Stats.median(b.serverCpuPerRun());
                    double[] perRun = b.column(Column.QPS);
                    spreads[a * lv.length + i] = Stats.relativeSpread(perRun) * 100;
                    // the runs of a point are consecutive: a first run slower than every other is warm-up's mark
                    if (perRun.length > 1 && Stats.best(perRun, false) == 0) firstSlowest++;
                    points++;
                    runs = perRun.length;
                    errors += b.errors().total();
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
                row.add(LABELS[Stats.best(col, true)]);
                rows.add(row);
            }
            out.put(mode + "_table", Md.table(List.of("connections", "LT QPS", "ET QPS", "MP QPS", "LT P99 µs", "ET P99 µs",
                    "MP P99 µs", "LT CPU µs/req", "ET CPU µs/req", "MP CPU µs/req", "most QPS"), rows));
            out.put(mode + "_errors", Long.toString(errors));
            // How far apart the runs of one point are: differences smaller than this are noise.
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
                out.put(mode + "_peak_" + ARCHS[a], Md.f0(qps[a][at]) + " at " + lv[at]);
                out.put(mode + "_one_" + ARCHS[a], Md.f0(qps[a][0]));
                out.put(mode + "_cpu_last_" + ARCHS[a], Md.f1(cpu[a][lv.length - 1]));
                cpuAtTop[m][a] = cpu[a][lv.length - 1];
                // share of the server's core in use at the peak: QPS x CPU seconds per request
                out.put(mode + "_util_" + ARCHS[a], Md.f0(qps[a][at] * cpu[a][at] / 1e4) + "%");
                for (int i = 0; i < lv.length; i++) out.put(mode + "_p99_" + ARCHS[a] + "_" + lv[i], Md.f0(p99[a][i]));
            }
            out.chart("concurrency-" + mode + "-qps.svg", q.render());
            out.chart("concurrency-" + mode + "-p99.svg", l.render());
            int best = Stats.best(peak[m], true);
            out.put(mode + "_best_peak_line", LABELS[best] + " (" + Md.versus(peak[m], best, LABELS) + ")");
        }
        out.put("levels", String.join(", ", lv));
        StringBuilder ka = new StringBuilder();
        for (int a = 0; a < ARCHS.length; a++) {
            if (a > 0) ka.append(", ");
            ka.append(LABELS[a]).append(' ').append(Md.f1(peak[0][a] / peak[1][a])).append('×');
        }
        out.put("keepalive_over_short", ka.toString());
        warmupAndGaps(out, peak, cpuAtTop, medianSpread, firstSlowest, points, runs, lv[lv.length - 1]);
        BenchReport first = r.bench("keepalive-lt-" + lv[0] + ".json");
        out.put("runs", Integer.toString(first.runs().size()));
        out.put("duration", Md.f1(first.config().durationS()) + " s");
    }

    /**
     * The sentences that compare: how often a point's first run was its slowest (against the
     * one in {@code runs} that chance gives), MP's keep-alive peak against the best loop's, how
     * far apart the peaks are against the runs' own spread, and short connections' CPU cost
     * against keep-alive's.
     */
    private static void warmupAndGaps(Report out, double[][] peak, double[][] cpuAtTop, double[] medianSpread,
                                      int firstSlowest, int points, int runs, String top) {
        double chance = (double) points / runs;
        out.put("first_slowest", firstSlowest + " of " + points + " points");
        out.put("first_slowest_verdict", firstSlowest > 2 * chance
                ? "far more often than the " + Md.f0(chance) + " that chance would give with " + runs + " runs per point: the runs"
                        + " of a point drift upward, which is warm-up (the server's and the client's JIT), not noise, so the spread"
                        + " below mixes the two"
                : "about as often as the " + Md.f0(chance) + " that chance would give with " + runs + " runs per point: no sign of"
                        + " warm-up in the runs' order");
        double bestLoop = Math.max(peak[0][0], peak[0][1]);
        String loop = peak[0][0] >= peak[0][1] ? LABELS[0] : LABELS[1];
        double mpShare = peak[0][2] / bestLoop;
        out.put("mp_throughput", (mpShare >= 0.9 ? "Throughput suffers less: " : "Throughput suffers too: ") + "MP's keep-alive peak is "
                + Md.f0(peak[0][2]) + " QPS, " + Md.f2(mpShare) + "× " + loop + "'s " + Md.f0(bestLoop) + " (medians, no interval)");
        for (int m = 0; m < MODES.length; m++) {
            double[] p = peak[m];
            double gap = Stats.spread(p) / p[Stats.best(p, true)];
            out.put(MODES[m] + "_peak_gap", "the peaks lie within " + Md.f1(gap * 100) + "% of the highest, "
                    + (gap < medianSpread[m] ? "less than" : "more than") + " the " + Md.f0(medianSpread[m] * 100)
                    + "% by which one point's runs differ (median)");
        }
        StringBuilder cpu = new StringBuilder();
        for (int a = 0; a < ARCHS.length; a++) {
            if (a > 0) cpu.append(", ");
            cpu.append(LABELS[a]).append(' ').append(Md.f1(cpuAtTop[1][a] / cpuAtTop[0][a])).append('×');
        }
        out.put("short_over_keepalive_cpu", cpu + " at " + top + " connections");
    }
}
