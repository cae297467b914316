package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import niolab.reports.BenchJson.Column;

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
                    BenchJson b = r.bench(mode + "-" + ARCHS[a] + "-" + lv[i] + ".json");
                    qps[a][i] = b.median(Column.QPS);
                    p99[a][i] = b.median(Column.P99);
                    cpu[a][i] = b.serverCpuPerRequest();
                    spreads[a * lv.length + i] = Stats.relativeSpread(b.column(Column.QPS)) * 100;
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
        BenchJson first = r.bench("keepalive-lt-" + lv[0] + ".json");
        out.put("runs", Integer.toString(first.runs().size()));
        out.put("duration", Md.f1(first.config().durationS()) + " s");
    }
}
