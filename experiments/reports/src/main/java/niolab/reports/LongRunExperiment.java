package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.BenchReport.Interval;
import niolab.common.results.BenchReport.Run;

/**
 * exp-long-run: serial short connections, a cold 100-request run against a long run with a
 * per-interval series per architecture: the JVM's warm-up over time, and the steady state.
 * Three steps: {@link #load} reads the results into {@link Data}, {@link #analyse} computes the
 * {@link Findings} (numbers and decisions, no words), {@link #render} says them in the template.
 */
public final class LongRunExperiment implements Experiment {
    private static final String[] ARCHS = ClassicServers.ARCHS;
    private static final String[] LABELS = ClassicServers.LABELS;

    @Override
    public String name() {
        return "long-run";
    }

    /**
     * One architecture's runs: the cold short run's QPS per run, and the long run's series per
     * interval (the last, usually partial, interval left out) with its whole-run figures.
     */
    record Series(double[] shortQps, long requests, double[] t, double[] qps, double[] p99, double wholeQps, double wholeP99Us, long errors) {
    }

    /** The run: a series per architecture, in {@link ClassicServers} order, and the interval's length. */
    record Data(List<Series> series, double intervalS) {
    }

    /** How the warm-up rose: most of it between two intervals, over several, or not readable against the steady half's own wandering. */
    enum Shape { STEP, SLOPE, UNCLEAR }

    /** One architecture's findings: its steady state, warm-up and shape. */
    record Arch(double shortQps, double steady, double ratio, double warmS, double riseShare, double spread, Shape shape,
            double steadyP99, Series series) {
    }

    /**
     * What the run found: per architecture, and which ranks first with its lead over the runner-up
     * against the wider steady-half variation of the two ({@code ranked}: the lead is larger).
     */
    record Findings(List<Arch> archs, long requests, double intervalS, int best, int next, double lead, int wider, boolean ranked,
            int slowest) {
    }

    static Data load(Results r) {
        List<Series> series = new ArrayList<>();
        for (String arch : ARCHS) {
            BenchReport shortRun = r.bench("short-" + arch + ".json");
            BenchReport longRun = r.bench("long-" + arch + ".json");
            Run run = longRun.runs().get(0);
            List<Interval> iv = run.intervals();
            // the last interval is usually partial: leave it out of the steady state and the charts
            int n = iv.size() > 2 ? iv.size() - 1 : iv.size();
            double[] t = new double[n], q = new double[n], p99 = new double[n];
            for (int i = 0; i < n; i++) {
                t[i] = iv.get(i).tS();
                q[i] = iv.get(i).qps();
                p99[i] = iv.get(i).p99Us();
            }
            series.add(new Series(shortRun.column(Column.QPS), run.requests(), t, q, p99, run.qps(), run.latencyUs().p99(),
                    shortRun.errors().total() + longRun.errors().total()));
        }
        return new Data(series, r.bench("long-lt.json").config().intervalS());
    }

    static Findings analyse(Data d) {
        List<Arch> archs = new ArrayList<>();
        double[] steady = new double[d.series.size()], spread = new double[steady.length], warm = new double[steady.length];
        for (int a = 0; a < steady.length; a++) {
            Series s = d.series.get(a);
            int n = s.qps.length;
            double[] secondHalf = SteadyState.secondHalf(s.qps);
            steady[a] = Stats.median(secondHalf);
            warm[a] = Double.NaN;
            for (int i = 0; i < n; i++) {
                if (s.qps[i] >= 0.9 * steady[a]) {
                    warm[a] = s.t[i];
                    break;
                }
            }
            spread[a] = Stats.relativeSpread(secondHalf);
            // a step: one interval-to-interval rise carries most of the way from the first interval to the
            // steady state; no shape can be read where the steady half itself moves by more than that rise
            double largestRise = 0;
            for (int i = 1; i < n; i++) largestRise = Math.max(largestRise, s.qps[i] - s.qps[i - 1]);
            double share = largestRise / (steady[a] - s.qps[0]);
            Shape shape = Stats.spread(secondHalf) >= largestRise ? Shape.UNCLEAR : share >= 0.5 ? Shape.STEP : Shape.SLOPE;
            double shortQps = Stats.mean(s.shortQps);
            archs.add(new Arch(shortQps, steady[a], steady[a] / shortQps, warm[a], share, spread[a], shape,
                    Stats.median(SteadyState.secondHalf(s.p99)), s));
        }
        int best = Stats.best(steady, true), next = -1;
        for (int a = 0; a < steady.length; a++) if (a != best && (next < 0 || steady[a] > steady[next])) next = a;
        double lead = (steady[best] - steady[next]) / steady[next];
        int wider = spread[best] >= spread[next] ? best : next;
        return new Findings(archs, d.series.get(d.series.size() - 1).requests, d.intervalS, best, next, lead, wider, lead > spread[wider],
                Stats.best(warm, true));
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
        return rankingVerdict(gap, next, wider, spread[wider], gap > spread[wider]);
    }

    private static String rankingVerdict(double lead, int next, int wider, double widerSpread, boolean ranked) {
        String said = "the lead of " + Md.f1(lead * 100) + "% over " + LABELS[next];
        String variation = LABELS[wider] + "'s steady-half variation (" + Md.f1(widerSpread * 100) + "%, max − min over median)";
        return !ranked
                ? said + " is no larger than " + variation + ", so this run cannot rank them"
                : said + " is larger than " + variation + ", the wider of the two, though one run with no rounds gives it no interval";
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static void render(Findings f, Report out) {
        List<List<String>> rows = new ArrayList<>();
        SvgChart qpsChart = new SvgChart("Throughput over time, serial short connections", "seconds into the run", "QPS");
        SvgChart p99Chart = new SvgChart("P99 latency over time, serial short connections", "seconds into the run", "p99 (µs)");
        List<String> steps = new ArrayList<>(), slopes = new ArrayList<>(), unclear = new ArrayList<>(), shapes = new ArrayList<>();
        double[] steady = new double[f.archs.size()], ratio = new double[steady.length];
        for (int a = 0; a < steady.length; a++) {
            Arch x = f.archs.get(a);
            Series s = x.series;
            steady[a] = x.steady;
            ratio[a] = x.ratio;
            rows.add(List.of(LABELS[a], Md.f1(x.shortQps), Md.f1(s.qps[0]), Md.f1(s.wholeQps), Md.f1(x.steady),
                    Md.f2(x.ratio) + "×", Md.f2(x.warmS) + " s", Md.us(x.steadyP99), Md.us(s.wholeP99Us), Long.toString(s.errors)));
            qpsChart.series(LABELS[a], s.t, s.qps);
            p99Chart.series(LABELS[a], s.t, s.p99);
            out.put("ratio_" + ARCHS[a], Md.f2(x.ratio) + "×");
            out.put("steady_" + ARCHS[a], Md.f0(x.steady));
            out.put("first_" + ARCHS[a], Md.f0(s.qps[0]));
            out.put("warm_s_" + ARCHS[a], Md.f2(x.warmS));
            (x.shape == Shape.UNCLEAR ? unclear : x.shape == Shape.STEP ? steps : slopes).add(LABELS[a]);
            shapes.add(LABELS[a] + " rose from " + Md.f0(s.qps[0]) + " to a steady " + Md.f0(x.steady) + " QPS, its largest rise between"
                    + " two intervals " + Md.f0(x.riseShare * 100) + "% of the whole, its P99 from " + Md.us(s.p99[0]) + " to "
                    + Md.us(x.steadyP99) + " (steady half's median); in the steady half its QPS varied by "
                    + Md.f0(x.spread * 100) + "% (max − min over median)");
        }
        out.put("requests", Long.toString(f.requests));
        out.put("interval", Md.f2(f.intervalS) + " s");
        out.put("table", Md.table(List.of("arch", "short run QPS (100 req, cold)", "first interval QPS",
                "whole long run QPS", "steady-state QPS", "steady / short", "reaches 90% of steady at",
                "steady P99", "whole-run P99", "errors"), rows));
        out.chart("long-run-qps.svg", qpsChart.render());
        out.chart("long-run-p99.svg", p99Chart.render());
        out.put("best_steady_line", LABELS[f.best] + " (" + Md.versus(steady, f.best, LABELS) + ")");
        out.put("warmup_shapes", String.join(". ", shapes) + ".");
        // the template words each shape; a list is empty where no server had it, and the cases place the separators
        out.put("shape_steps", String.join(" and ", steps));
        out.put("shape_slopes", String.join(" and ", slopes));
        out.put("shape_unclear", String.join(" and ", unclear));
        out.put("shape_after_steps", !slopes.isEmpty() || !unclear.isEmpty());
        out.put("slowest_warm", LABELS[f.slowest]);
        out.put("ranking_verdict", rankingVerdict(f.lead, f.next, f.wider, f.archs.get(f.wider).spread, f.ranked));
        out.put("seed_ratio", Md.f2(SteadyState.WRITE_UP_RATIO) + "×");
        out.put("ratio_min", Md.f2(ratio[Stats.best(ratio, false)]) + "×");
        out.put("ratio_max", Md.f2(ratio[Stats.best(ratio, true)]) + "×");
    }
}
