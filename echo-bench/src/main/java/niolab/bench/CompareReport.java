package niolab.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import niolab.bench.report.JsonReport;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchReport;
import niolab.common.results.ResultsJson;
import niolab.common.stats.Comparison;
import niolab.common.stats.Comparison.Quantity;
import niolab.common.stats.Decimals;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;
import niolab.common.stats.Quantiles;

/**
 * What {@code echo-bench compare} prints and writes: per server the median rate, its range, the
 * median CPU per request and p99; against the first server, each quantity's ratio with its 95%
 * interval at the level where the variance lives ({@link ForkInterval}: rounds within one fork,
 * forks across several), the share of the variance between forks, and the verdict against the
 * threshold ({@link Comparison#describe(Interval, Quantity, double)}). Only rounds in which both
 * servers served are paired. The threshold is the one given, or the larger of 2% and the floor:
 * how far from 1 the A/A twin's interval reaches, per quantity.
 */
final class CompareReport {
    /** Fewer paired rounds than this give no interval: the range of 5 holds the median only 94% of the time. */
    static final int MIN_PAIRED_ROUNDS = MedianInterval.MIN_ROUNDS;

    private final List<CompareTarget> targets;
    /** The servers given as commands, started afresh in each fork. */
    private final Set<String> commands;
    private final List<Slice> slices;
    /** Server name to why it was given up, in the order they died. */
    private final Map<String, String> deaths;
    private final int forks;
    /** --threshold as a fraction, or null. */
    private final Double givenThreshold;
    /** The A/A twin's name, or null. */
    private final String aa;

    CompareReport(List<CompareTarget> targets, Set<String> commands, List<Slice> slices, Map<String, String> deaths, int forks,
            Double givenThreshold, String aa) {
        this.targets = targets;
        this.commands = commands;
        this.slices = slices;
        this.deaths = deaths;
        this.forks = forks;
        this.givenThreshold = givenThreshold;
        this.aa = aa;
    }

    /** One quantity's ratio against the first server and its verdict against {@code threshold}. */
    record Ratio(Quantity quantity, ForkInterval measured, double threshold, double floor) {
        Interval interval() {
            return measured.ratio();
        }

        int pairs() {
            return measured.rounds();
        }

        Comparison.Verdict verdict() {
            return Comparison.verdict(interval(), threshold);
        }

        String words() {
            return Comparison.describe(interval(), quantity, threshold);
        }
    }

    /** A server's rates and medians over the slices in which it served. */
    record Summary(CompareTarget target, int served, Interval rate, Interval rateIqr, double cpuUsPerRequest, double p99Us, long errors) {}

    Summary summary(CompareTarget t) {
        List<Slice> own = served(t.name());
        long errors = 0;
        for (Slice s : slices) {
            if (s.server().equals(t.name())) errors += s.errors();
        }
        if (own.isEmpty()) return new Summary(t, 0, null, null, Double.NaN, Double.NaN, errors);
        double[] rates = new double[own.size()];
        for (int i = 0; i < rates.length; i++) rates[i] = own.get(i).rate();
        return new Summary(t, own.size(), Quantiles.range(rates), Quantiles.interquartile(rates),
                medianOfFinite(own, Quantity.COST), medianOfFinite(own, Quantity.LATENCY), errors);
    }

    /** {@code server}'s quantity over the first server's, round by round, grouped by fork; null when too few rounds pair. */
    ForkInterval measured(String server, Quantity quantity) {
        String base = targets.get(0).name();
        Map<Integer, List<Double>> byFork = new TreeMap<>();
        int pairs = 0;
        for (Slice a : slices) {
            if (!a.server().equals(server) || !a.served()) continue;
            Slice b = find(base, a.round());
            if (b == null || !b.served()) continue;
            double x = value(a, quantity);
            double y = value(b, quantity);
            if (Double.isFinite(x) && Double.isFinite(y) && x > 0 && y > 0) {
                byFork.computeIfAbsent(a.fork(), f -> new ArrayList<>()).add(x / y);
                pairs++;
            }
        }
        if (pairs < MIN_PAIRED_ROUNDS) return null;
        double[][] ratios = new double[byFork.size()][];
        int f = 0;
        for (List<Double> fork : byFork.values()) ratios[f++] = unbox(fork);
        return ForkInterval.of(ratios);
    }

    /** How far from 1 the A/A twin's interval reaches for {@code quantity}: NaN without a twin or its rounds. */
    double floor(Quantity quantity) {
        if (aa == null) return Double.NaN;
        ForkInterval twin = measured(aa, quantity);
        return twin == null ? Double.NaN : Comparison.floor(twin.ratio());
    }

    /** The threshold of {@code quantity}'s verdicts: the one given, or the larger of 2% and the floor. */
    double threshold(Quantity quantity) {
        if (givenThreshold != null) return givenThreshold;
        double floor = floor(quantity);
        return Double.isNaN(floor) ? Comparison.MIN_THRESHOLD : Math.max(Comparison.MIN_THRESHOLD, floor);
    }

    /** Where {@link #threshold} came from, for the reader and the JSON. */
    String thresholdSource(Quantity quantity) {
        if (givenThreshold != null) return "--threshold";
        return floor(quantity) > Comparison.MIN_THRESHOLD ? "a/a floor" : "minimum";
    }

    /** {@code t}'s quantity over the first server's, with its verdict; null when too few rounds pair. */
    Ratio ratio(CompareTarget t, Quantity quantity) {
        ForkInterval measured = measured(t.name(), quantity);
        return measured == null ? null : new Ratio(quantity, measured, threshold(quantity), floor(quantity));
    }

    /** Whether CPU per request is measured for {@code t}: a pid given, or a process compare started. */
    private boolean cpuMeasured(CompareTarget t) {
        return t.hasPid() || commands.contains(t.name());
    }

    String text() {
        StringBuilder sb = new StringBuilder();
        int w = 6;
        for (CompareTarget t : targets) w = Math.max(w, t.name().length());
        String name = "%-" + w + "s";
        sb.append(String.format(Locale.ROOT, name + " %-21s %6s %13s %23s %11s %9s %7s%n", "server", "target", "slices", "median rate/s",
                "range (min-max)", "cpu us/req", "p99 us", "errors"));
        for (CompareTarget t : targets) {
            Summary s = summary(t);
            sb.append(String.format(Locale.ROOT, name + " %-21s %6d %13s %23s %11s %9s %7d%n", t.name(), commands.contains(t.name()) ? "(command)" : t.hostPort(), s.served(),
                    s.rate() == null ? "-" : String.format(Locale.ROOT, "%,.0f", s.rate().estimate()),
                    s.rate() == null ? "-" : String.format(Locale.ROOT, "%,.0f-%,.0f", s.rate().low(), s.rate().high()),
                    fixed(s.cpuUsPerRequest(), 2), fixed(s.p99Us(), 0), s.errors()));
        }
        if (targets.size() > 1) {
            sb.append(String.format(Locale.ROOT, "against %s: %s, 95%% interval%n", targets.get(0).name(), forks > 1
                    ? "per fork the median of its per-round ratios; across forks a Student-t interval of the mean of their log-medians"
                    : "the median of the per-round ratios"));
            for (CompareTarget t : targets.subList(1, targets.size())) {
                String label = t.name().equals(aa) ? t.name() + " (A/A)" : t.name();
                for (Quantity q : Quantity.values()) {
                    Ratio r = ratio(t, q);
                    String what = String.format(Locale.ROOT, name + " %-12s ", label, quantityName(q));
                    if (r == null) {
                        if (q == Quantity.RATE || q == Quantity.COST && cpuMeasured(t) && cpuMeasured(targets.get(0))) {
                            sb.append(what).append("too few rounds in which both served (").append(MIN_PAIRED_ROUNDS).append(" needed)\n");
                            label = "";
                        }
                        continue;
                    }
                    Interval i = r.interval();
                    sb.append(what).append(Decimals.interval(i, 3, 1, 1 - r.threshold(), 1 + r.threshold())).append("  ").append(r.words())
                            .append(" (").append(rounds(r.measured())).append(")\n");
                    label = "";
                }
                if (t.name().equals(aa)) sb.append(floorLine());
            }
        }
        return sb.toString();
    }

    /** "12 rounds" or "18 rounds in 3 forks, 40% of the variance between forks". */
    private static String rounds(ForkInterval m) {
        if (m.forks() < 2) return m.rounds() + " rounds";
        String share = Double.isNaN(m.betweenShare()) ? "" : String.format(Locale.ROOT, ", %.0f%% of the variance between forks", m.betweenShare() * 100);
        return m.rounds() + " rounds in " + m.forks() + " forks" + share;
    }

    /** The floor the A/A twin showed and the threshold each quantity's verdicts use. */
    private String floorLine() {
        StringBuilder floors = new StringBuilder();
        StringBuilder thresholds = new StringBuilder();
        for (Quantity q : Quantity.values()) {
            double floor = floor(q);
            if (Double.isNaN(floor)) continue;
            String sep = floors.length() == 0 ? "" : ", ";
            floors.append(sep).append(quantityName(q)).append(" ±").append(Decimals.fixed(floor * 100, 1)).append('%');
            thresholds.append(sep).append(quantityName(q)).append(" ±").append(Decimals.fixed(threshold(q) * 100, 1)).append('%');
        }
        if (floors.length() == 0) return "floor: the A/A twin " + aa + " paired too few rounds; threshold ±2.0%\n";
        return "floor (the A/A twin's reach from 1): " + floors + "; threshold (the larger of 2% and the floor): " + thresholds + "\n";
    }

    BenchComparison json(BenchComparison.Config config) {
        List<BenchComparison.Server> servers = new ArrayList<>();
        for (CompareTarget t : targets) {
            servers.add(new BenchComparison.Server(t.name(), t.hostPort(), t.hasPid() ? (Long) t.pid() : null, deaths.get(t.name()),
                    commands.contains(t.name())));
        }
        List<BenchComparison.Slice> rows = new ArrayList<>();
        for (Slice s : slices) {
            rows.add(s.json());
        }
        List<BenchComparison.ServerSummary> perServer = new ArrayList<>();
        for (CompareTarget t : targets) {
            Summary s = summary(t);
            boolean served = s.rate() != null;
            perServer.add(new BenchComparison.ServerSummary(t.name(), s.served(), s.errors(), served ? s.rate().estimate() : null,
                    served ? s.rate().low() : null, served ? s.rate().high() : null, served ? s.rateIqr().low() : null,
                    served ? s.rateIqr().high() : null, ResultsJson.orNull(s.cpuUsPerRequest()), ResultsJson.orNull(s.p99Us())));
        }
        List<BenchComparison.Comparison> comparisons = new ArrayList<>();
        for (CompareTarget t : targets.subList(1, targets.size())) {
            comparisons.add(new BenchComparison.Comparison(t.name(), targets.get(0).name(), json(ratio(t, Quantity.RATE)),
                    json(ratio(t, Quantity.COST)), json(ratio(t, Quantity.LATENCY))));
        }
        return new BenchComparison(BenchReport.TOOL, BenchReport.SCHEMA, BenchComparison.COMMAND, config, JsonReport.environment(),
                servers, rows, new BenchComparison.Summary(perServer, comparisons, forks, ForkInterval.METHOD, aa,
                        ResultsJson.orNull(floor(Quantity.RATE)), threshold(Quantity.RATE), thresholdSource(Quantity.RATE)));
    }

    private List<Slice> served(String server) {
        List<Slice> own = new ArrayList<>();
        for (Slice s : slices) {
            if (s.server().equals(server) && s.served()) own.add(s);
        }
        return own;
    }

    private Slice find(String server, int round) {
        for (Slice s : slices) {
            if (s.round() == round && s.server().equals(server)) return s;
        }
        return null;
    }

    private static double value(Slice s, Quantity q) {
        switch (q) {
            case RATE: return s.rate();
            case COST: return s.serverCpuUsPerRequest();
            default: return s.p99Us();
        }
    }

    private static double medianOfFinite(List<Slice> own, Quantity q) {
        double[] xs = new double[own.size()];
        int n = 0;
        for (Slice s : own) {
            double v = value(s, q);
            if (Double.isFinite(v)) xs[n++] = v;
        }
        return n == 0 ? Double.NaN : Quantiles.median(java.util.Arrays.copyOf(xs, n));
    }

    private static String quantityName(Quantity q) {
        switch (q) {
            case RATE: return "rate";
            case COST: return "cpu/request";
            default: return "p99";
        }
    }

    private static BenchComparison.Ratio json(Ratio r) {
        if (r == null) return null;
        Interval i = r.interval();
        return new BenchComparison.Ratio(r.pairs(), i.estimate(), i.low(), i.high(), Comparison.direction(i).name().toLowerCase(Locale.ROOT),
                r.words(), r.verdict().name().toLowerCase(Locale.ROOT), r.threshold(), ResultsJson.orNull(r.floor()), r.measured().forks(),
                ResultsJson.orNull(r.measured().betweenShare()));
    }

    private static String fixed(double v, int digits) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + digits + "f", v) : "-";
    }

    private static double[] unbox(List<Double> xs) {
        double[] a = new double[xs.size()];
        for (int i = 0; i < a.length; i++) a[i] = xs.get(i);
        return a;
    }
}
