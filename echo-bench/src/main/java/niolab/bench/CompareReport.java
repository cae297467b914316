package niolab.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import niolab.bench.report.JsonReport;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchReport;
import niolab.common.results.ResultsJson;
import niolab.common.stats.Comparison;
import niolab.common.stats.Comparison.Quantity;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;
import niolab.common.stats.Quantiles;

/**
 * What {@code echo-bench compare} prints and writes: per server the median rate, its range, the
 * median CPU per request and p99; against the first server, the median of the per-round ratios
 * with its 95% interval and the verdict in words. Only rounds in which both servers served are
 * paired; the statistics are lab-common's ({@link MedianInterval}, {@link Comparison}).
 */
final class CompareReport {
    /** Fewer paired rounds than this give no interval: the range of 5 holds the median only 94% of the time. */
    static final int MIN_PAIRED_ROUNDS = MedianInterval.MIN_ROUNDS;

    private final List<CompareTarget> targets;
    private final List<Slice> slices;
    /** Server name to why it was given up, in the order they died. */
    private final Map<String, String> deaths;

    CompareReport(List<CompareTarget> targets, List<Slice> slices, Map<String, String> deaths) {
        this.targets = targets;
        this.slices = slices;
        this.deaths = deaths;
    }

    /** One quantity's ratio against the first server, or null when too few rounds pair. */
    record Ratio(Quantity quantity, int pairs, Interval interval) {
        String words() {
            return Comparison.describe(interval, quantity);
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

    /** {@code t}'s quantity over the first server's, round by round. */
    Ratio ratio(CompareTarget t, Quantity quantity) {
        String base = targets.get(0).name();
        List<Double> numer = new ArrayList<>();
        List<Double> denom = new ArrayList<>();
        for (Slice a : slices) {
            if (!a.server().equals(t.name()) || !a.served()) continue;
            Slice b = find(base, a.round());
            if (b == null || !b.served()) continue;
            double x = value(a, quantity);
            double y = value(b, quantity);
            if (Double.isFinite(x) && Double.isFinite(y) && x > 0 && y > 0) {
                numer.add(x);
                denom.add(y);
            }
        }
        if (numer.size() < MIN_PAIRED_ROUNDS) return null;
        return new Ratio(quantity, numer.size(), MedianInterval.medianOfRatios(unbox(numer), unbox(denom)));
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
            sb.append(String.format(Locale.ROOT, name + " %-21s %6d %13s %23s %11s %9s %7d%n", t.name(), t.hostPort(), s.served(),
                    s.rate() == null ? "-" : String.format(Locale.ROOT, "%,.0f", s.rate().estimate()),
                    s.rate() == null ? "-" : String.format(Locale.ROOT, "%,.0f-%,.0f", s.rate().low(), s.rate().high()),
                    fixed(s.cpuUsPerRequest(), 2), fixed(s.p99Us(), 0), s.errors()));
        }
        if (targets.size() > 1) {
            sb.append(String.format(Locale.ROOT, "against %s: the median of the per-round ratios, 95%% interval%n", targets.get(0).name()));
            for (CompareTarget t : targets.subList(1, targets.size())) {
                String label = t.name();
                for (Quantity q : Quantity.values()) {
                    Ratio r = ratio(t, q);
                    String what = String.format(Locale.ROOT, name + " %-12s ", label, quantityName(q));
                    if (r == null) {
                        if (q == Quantity.RATE || q == Quantity.COST && t.hasPid() && targets.get(0).hasPid()) {
                            sb.append(what).append("too few rounds in which both served (").append(MIN_PAIRED_ROUNDS).append(" needed)\n");
                            label = "";
                        }
                        continue;
                    }
                    Interval i = r.interval();
                    sb.append(what).append(String.format(Locale.ROOT, "%.3f [%.3f, %.3f]  %s (%d rounds)%n", i.estimate(), i.low(), i.high(),
                            r.words(), r.pairs()));
                    label = "";
                }
            }
        }
        return sb.toString();
    }

    BenchComparison json(BenchComparison.Config config) {
        List<BenchComparison.Server> servers = new ArrayList<>();
        for (CompareTarget t : targets) {
            servers.add(new BenchComparison.Server(t.name(), t.hostPort(), t.hasPid() ? (Long) t.pid() : null, deaths.get(t.name())));
        }
        List<BenchComparison.Slice> rows = new ArrayList<>();
        for (Slice s : slices) {
            rows.add(new BenchComparison.Slice(s.round(), s.position(), s.server(), s.requests(), s.errors(), s.seconds(), ResultsJson.orNull(s.rate()),
                    ResultsJson.orNull(s.p50Us()), ResultsJson.orNull(s.p99Us()), ResultsJson.orNull(s.serverCpuUsPerRequest()), s.refused()));
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
                servers, rows, new BenchComparison.Summary(perServer, comparisons));
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
                r.words());
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
