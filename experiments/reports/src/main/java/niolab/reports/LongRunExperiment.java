package niolab.reports;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.BenchReport.Interval;
import niolab.common.results.BenchReport.Run;

/**
 * exp-long-run: serial short connections, a cold 100-request run against a long run with a
 * per-interval series per architecture: the JVM's warm-up over time, and the steady state.
 */
public final class LongRunExperiment implements Experiment {
    private static final String[] ARCHS = ClassicServers.ARCHS;
    private static final String[] LABELS = ClassicServers.LABELS;

    @Override
    public String name() {
        return "long-run";
    }

    /**
     * Whether one run ranks the leader above the runner-up: only when its lead is larger than the
     * steady-half variation of both of them, since either one's own wandering could make up the gap.
     * {@code spread} is each server's steady-half max − min over median.
     */
    static String rankingVerdict(double[] steady, double[] spread) {
        int best = Stats.best(steady, true), next = -1;
        for (int a = 0; a < steady.length; a++) if (a != best && (next < 0 || steady[a] > steady[next])) next = a;
        double gap = (steady[best] - steady[next]) / steady[next];
        int wider = spread[best] >= spread[next] ? best : next;
        String lead = "the lead of " + Md.f1(gap * 100) + "% over " + LABELS[next];
        String variation = LABELS[wider] + "'s steady-half variation (" + Md.f1(spread[wider] * 100) + "%, max − min over median)";
        return gap <= spread[wider]
                ? lead + " is no larger than " + variation + ", so this run cannot rank them"
                : lead + " is larger than " + variation + ", the wider of the two, though one run with no rounds gives it no interval";
    }

    @Override
    public void generate(Results r, Report out) {
        List<List<String>> rows = new ArrayList<>();
        SvgChart qpsChart = new SvgChart("Throughput over time, serial short connections", "seconds into the run", "QPS");
        SvgChart p99Chart = new SvgChart("P99 latency over time, serial short connections", "seconds into the run", "p99 (µs)");
        double[] steady = new double[ARCHS.length];
        double[] ratio = new double[ARCHS.length], spread = new double[ARCHS.length], warmS = new double[ARCHS.length];
        List<String> steps = new ArrayList<>(), slopes = new ArrayList<>(), unclear = new ArrayList<>(), shapes = new ArrayList<>();
        long requests = 0;
        for (int a = 0; a < ARCHS.length; a++) {
            BenchReport shortRun = r.bench("short-" + ARCHS[a] + ".json");
            BenchReport longRun = r.bench("long-" + ARCHS[a] + ".json");
            Run run = longRun.runs().get(0);
            requests = run.requests();
            List<Interval> iv = run.intervals();
            double[] t = new double[iv.size()], q = new double[iv.size()], p99 = new double[iv.size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = iv.get(i).tS();
                q[i] = iv.get(i).qps();
                p99[i] = iv.get(i).p99Us();
            }
            // the last interval is usually partial: leave it out of the steady state and the charts
            int n = t.length > 2 ? t.length - 1 : t.length;
            double[] secondHalf = Arrays.copyOfRange(q, n / 2, n);
            double[] secondHalfP99 = Arrays.copyOfRange(p99, n / 2, n);
            steady[a] = SteadyState.qps(longRun);
            double shortQps = Stats.mean(shortRun.column(Column.QPS));
            ratio[a] = steady[a] / shortQps;
            double warm = Double.NaN;
            for (int i = 0; i < n; i++) {
                if (q[i] >= 0.9 * steady[a]) {
                    warm = t[i];
                    break;
                }
            }
            rows.add(List.of(LABELS[a], Md.f1(shortQps), Md.f1(q[0]), Md.f1(run.qps()), Md.f1(steady[a]),
                    Md.f2(ratio[a]) + "×", Md.f2(warm) + " s", Md.us(Stats.median(secondHalfP99)),
                    Md.us(run.latencyUs().p99()), Long.toString(shortRun.errors().total() + longRun.errors().total())));
            qpsChart.series(LABELS[a], Arrays.copyOf(t, n), Arrays.copyOf(q, n));
            p99Chart.series(LABELS[a], Arrays.copyOf(t, n), Arrays.copyOf(p99, n));
            out.put("ratio_" + ARCHS[a], Md.f2(ratio[a]) + "×");
            out.put("steady_" + ARCHS[a], Md.f0(steady[a]));
            out.put("first_" + ARCHS[a], Md.f0(q[0]));
            out.put("warm_s_" + ARCHS[a], Md.f2(warm));
            warmS[a] = warm;
            spread[a] = Stats.relativeSpread(secondHalf);
            // a step: one interval-to-interval rise carries most of the way from the first interval to the
            // steady state; no shape can be read where the steady half itself moves by more than that rise
            double largestRise = 0;
            for (int i = 1; i < n; i++) largestRise = Math.max(largestRise, q[i] - q[i - 1]);
            double share = largestRise / (steady[a] - q[0]);
            (Stats.spread(secondHalf) >= largestRise ? unclear : share >= 0.5 ? steps : slopes).add(LABELS[a]);
            shapes.add(LABELS[a] + " rose from " + Md.f0(q[0]) + " to a steady " + Md.f0(steady[a]) + " QPS, its largest rise between"
                    + " two intervals " + Md.f0(share * 100) + "% of the whole, its P99 from " + Md.us(p99[0]) + " to "
                    + Md.us(Stats.median(secondHalfP99)) + " (steady half's median); in the steady half its QPS varied by "
                    + Md.f0(spread[a] * 100) + "% (max − min over median)");
        }
        out.put("requests", Long.toString(requests));
        out.put("interval", Md.f2(r.bench("long-lt.json").config().intervalS()) + " s");
        out.put("table", Md.table(List.of("arch", "short run QPS (100 req, cold)", "first interval QPS",
                "whole long run QPS", "steady-state QPS", "steady / short", "reaches 90% of steady at",
                "steady P99", "whole-run P99", "errors"), rows));
        out.chart("long-run-qps.svg", qpsChart.render());
        out.chart("long-run-p99.svg", p99Chart.render());
        int best = Stats.best(steady, true);
        out.put("best_steady_line", LABELS[best] + " (" + Md.versus(steady, best, LABELS) + ")");
        out.put("warmup_shapes", String.join(". ", shapes) + ".");
        List<String> shape = new ArrayList<>();
        // one run at one interval's resolution: a rise within one interval reads the same whether it was a step or a steep slope
        if (!steps.isEmpty()) shape.add("most of the rise between two consecutive intervals for " + String.join(" and ", steps)
                + " (a step or a slope steeper than one interval: one run at this resolution cannot tell which)");
        if (!slopes.isEmpty()) shape.add("a slope over several intervals for " + String.join(" and ", slopes));
        if (!unclear.isEmpty()) {
            shape.add("of no shape this run can tell for " + String.join(" and ", unclear)
                    + " (the steady half moved by more than the largest rise)");
        }
        out.put("warmup_shape", String.join("; ", shape));
        int slowest = Stats.best(warmS, true);
        out.put("slowest_warm", LABELS[slowest]);
        out.put("ranking_verdict", rankingVerdict(steady, spread));
        out.put("seed_ratio", Md.f2(SteadyState.WRITE_UP_RATIO) + "×");
        out.put("ratio_min", Md.f2(ratio[Stats.best(ratio, false)]) + "×");
        out.put("ratio_max", Md.f2(ratio[Stats.best(ratio, true)]) + "×");
    }
}
