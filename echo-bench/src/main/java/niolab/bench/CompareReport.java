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
import niolab.common.stats.Plan;
import niolab.common.stats.Power;
import niolab.common.stats.VarianceComponents;
import niolab.common.stats.Quantiles;

/**
 * What {@code echo-bench compare} prints and writes: per server the median rate, its range, the
 * median CPU per request and p99; against the first server, each quantity's ratio with its
 * interval at the level where the variance lives ({@link ForkInterval}: rounds within one fork,
 * forks across several), the share of the variance between forks, the verdict against the
 * threshold fixed before the data ({@link Comparison#describe(Interval, Quantity, double)}) and
 * the smallest difference the design detects with 90% power. Only rounds in which both servers
 * served are paired. An A/A twin, when asked for, is a check of the run printed apart: how far
 * from 1 its interval reaches, against the threshold; it never sets the threshold.
 */
final class CompareReport {
    /** Fewer paired rounds than this in one fork give no interval: the range of 5 holds the median only 94% of the time. */
    static final int MIN_PAIRED_ROUNDS = MedianInterval.MIN_ROUNDS;

    private final List<CompareTarget> targets;
    /** The servers given as commands, started afresh in each fork. */
    private final Set<String> commands;
    private final List<Slice> slices;
    /** Server name to why it was given up, in the order they died. */
    private final Map<String, String> deaths;
    /** The verdicts' margin, a fraction fixed before the data. */
    private final double threshold;
    /** The A/A twin's name, or null. */
    private final String aa;
    /** The intervals' confidence: 95%, or a sequential look's. */
    private final double level;
    /** What a run until decided says of its last look, or null. */
    private final String looks;

    CompareReport(List<CompareTarget> targets, Set<String> commands, List<Slice> slices, Map<String, String> deaths, double threshold,
            String aa, double level, String looks) {
        this.targets = targets;
        this.commands = commands;
        this.slices = slices;
        this.deaths = deaths;
        this.threshold = threshold;
        this.aa = aa;
        this.level = level;
        this.looks = looks;
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

        /** The smallest difference (a fraction) this design detects with 90% power. */
        double detectable() {
            return measured.detectable(threshold);
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
        double[][] ratios = perFork(server, quantity);
        int pairs = 0;
        for (double[] fork : ratios) pairs += fork.length;
        // one fork needs enough rounds for its median's interval; forks need at least three of them
        if (ratios.length == 1 ? pairs < MIN_PAIRED_ROUNDS : ratios.length < Compare.MIN_FORKS) return null;
        return ForkInterval.of(ratios, level);
    }

    /** {@code server}'s per-round ratios to the first server's, a row per fork that paired any. */
    private double[][] perFork(String server, Quantity quantity) {
        String base = targets.get(0).name();
        Map<Integer, List<Double>> byFork = new TreeMap<>();
        for (Slice a : slices) {
            if (!a.server().equals(server) || !a.served()) continue;
            Slice b = find(base, a.round());
            if (b == null || !b.served()) continue;
            double x = value(a, quantity);
            double y = value(b, quantity);
            if (Double.isFinite(x) && Double.isFinite(y) && x > 0 && y > 0) byFork.computeIfAbsent(a.fork(), f -> new ArrayList<>()).add(x / y);
        }
        double[][] ratios = new double[byFork.size()][];
        int f = 0;
        for (List<Double> fork : byFork.values()) ratios[f++] = unbox(fork);
        return ratios;
    }

    /** The forks that ran: the largest fork number among the slices. */
    int forks() {
        int forks = 0;
        for (Slice s : slices) forks = Math.max(forks, s.fork());
        return forks;
    }

    /** How far from 1 the A/A twin's interval reaches for {@code quantity}: NaN without a twin or its rounds. */
    double floor(Quantity quantity) {
        if (aa == null) return Double.NaN;
        ForkInterval twin = measured(aa, quantity);
        return twin == null ? Double.NaN : Comparison.floor(twin.ratio());
    }

    /** {@code t}'s quantity over the first server's, with its verdict; null when too few rounds pair. */
    Ratio ratio(CompareTarget t, Quantity quantity) {
        ForkInterval measured = measured(t.name(), quantity);
        return measured == null ? null : new Ratio(quantity, measured, threshold, floor(quantity));
    }

    /**
     * Whether every verdict a run until decided waits for is decided: each server's rate, and its
     * CPU per request where both sides' CPU is measured; the A/A twin is a check, not a verdict.
     */
    boolean decided() {
        for (CompareTarget t : targets.subList(1, targets.size())) {
            if (t.name().equals(aa) || deaths.containsKey(t.name())) continue;
            Ratio rate = ratio(t, Quantity.RATE);
            // a client-bound rate is the client's: more forks would not make it the server's
            boolean rateDecided = rate != null && (rate.verdict() != Comparison.Verdict.UNDECIDED || clientBound(t) != null);
            if (!rateDecided) return false;
            if (cpuMeasured(t) && cpuMeasured(targets.get(0))) {
                Ratio cost = ratio(t, Quantity.COST);
                if (cost == null || cost.verdict() == Comparison.Verdict.UNDECIDED) return false;
            }
        }
        return true;
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
            sb.append(String.format(Locale.ROOT, "against %s: %s, %s%% interval%s%n", targets.get(0).name(), forks() > 1
                    ? "per fork the median of its per-round ratios; across forks a Student-t interval of the mean of their log-medians"
                    : "the median of the per-round ratios", Decimals.fixed(level * 100, level == MedianInterval.LEVEL ? 0 : 2),
                    looks == null ? "" : " (" + looks + ")"));
            for (CompareTarget t : targets.subList(1, targets.size())) {
                if (t.name().equals(aa)) continue;
                String label = t.name();
                for (Quantity q : Quantity.values()) {
                    Ratio r = ratio(t, q);
                    String what = String.format(Locale.ROOT, name + " %-12s ", label, quantityName(q));
                    if (r == null) {
                        if (q == Quantity.RATE || q == Quantity.COST && cpuMeasured(t) && cpuMeasured(targets.get(0))) {
                            sb.append(what).append("too few rounds in which both served (").append(tooFew()).append(")\n");
                            label = "";
                        }
                        continue;
                    }
                    Interval i = r.interval();
                    String bound = q == Quantity.RATE ? clientBound(t) : null;
                    sb.append(what).append(Decimals.interval(i, 3, 1, 1 - r.threshold(), 1 + r.threshold())).append("  ")
                            .append(bound != null ? bound : r.words() + "; " + power(r)).append(" (").append(rounds(r.measured())).append(")\n");
                    label = "";
                }
            }
            if (aa != null) sb.append(aaCheck());
        }
        String disturbed = Rulers.disturbedWords(slices);
        if (disturbed != null) sb.append("interference: ").append(disturbed).append('\n');
        return sb.toString();
    }

    /** The words that replace a rate verdict when the client, not the server, set the rate; null when it did not. */
    private String clientBound(CompareTarget t) {
        return Rulers.rateClientBound(slices, t.name(), targets.get(0).name()) ? Rulers.clientBoundWords(slices, t.name(), targets.get(0).name()) : null;
    }

    private String tooFew() {
        return forks() > 1 ? Compare.MIN_FORKS + " forks needed" : MIN_PAIRED_ROUNDS + " needed";
    }

    /** "detects ≥3.1% with 90% power": the smallest true difference this design calls beyond the threshold 9 times in 10. */
    static String power(Ratio r) {
        double slower = r.measured().detectableSlower(r.threshold());
        double faster = r.measured().detectableFaster(r.threshold());
        String power = " with " + Math.round(Power.TARGET * 100) + "% power";
        if (!Double.isFinite(slower) || !Double.isFinite(faster)) return "its power unknown (too few rounds for a spread)";
        // a few percent read the same either way; a wide design is far more lopsided in ratios (-78% against +350%)
        if (faster < 0.1) return "detects ≥" + Decimals.fixed(faster * 100, 1) + "%" + power;
        return "detects ≥" + Decimals.fixed(slower * 100, 0) + "% " + r.quantity().below() + " or ≥" + Decimals.fixed(faster * 100, 0) + "% "
                + r.quantity().above() + power;
    }

    /** "12 rounds" or "18 rounds in 3 forks, 40% of the variance between forks". */
    private static String rounds(ForkInterval m) {
        if (m.forks() < 2) return m.rounds() + " rounds";
        String share = Double.isNaN(m.betweenShare()) ? "" : String.format(Locale.ROOT, ", %.0f%% of the variance between forks", m.betweenShare() * 100);
        return m.rounds() + " rounds in " + m.forks() + " forks" + share;
    }

    /** The A/A twin as a check of the run: its ratio to the baseline per quantity, inside the threshold or not. */
    private String aaCheck() {
        StringBuilder sb = new StringBuilder();
        CompareTarget twin = null;
        for (CompareTarget t : targets) {
            if (t.name().equals(aa)) twin = t;
        }
        for (Quantity q : Quantity.values()) {
            if (q == Quantity.LATENCY || twin == null) continue;
            ForkInterval m = measured(aa, q);
            if (m == null) continue;
            Comparison.Verdict v = Comparison.verdict(m.ratio(), threshold);
            String bound = "±" + Decimals.fixed(threshold * 100, 1) + "%";
            boolean differs = v == Comparison.Verdict.ABOVE || v == Comparison.Verdict.BELOW;
            sb.append(differs ? "warning: A/A check (" : "A/A check (").append(aa).append(" against ").append(targets.get(0).name()).append("): ")
                    .append(quantityName(q)).append(' ').append(Decimals.interval(m.ratio(), 3, 1 - threshold, 1 + threshold));
            if (v == Comparison.Verdict.SAME) sb.append(", inside ").append(bound).append('\n');
            else if (differs) {
                sb.append(", beyond ").append(bound).append(": two processes of one command differ by more than the threshold in this run, "
                        + "so its verdicts can be the machine's or the order's, not the servers'\n");
            } else {
                sb.append(", too wide to check against ").append(bound).append(": this design cannot tell such a difference from noise "
                        + "(each verdict states what it detects)\n");
            }
        }
        if (sb.length() == 0) sb.append("A/A check: the twin ").append(aa).append(" paired too few rounds\n");
        return sb.toString();
    }

    /**
     * --plan: from this run as a pilot, the design that calls a {@code detect} difference with 90%
     * power: the largest within- and between-fork variance over the compared servers' rates, the
     * pilot's costs of a fork and of a round, {@link Plan}'s rounds and forks.
     */
    String plan(double detect, Compare.ForkClock clock) {
        double within = Double.NaN;
        double between = Double.NaN;
        for (CompareTarget t : targets.subList(1, targets.size())) {
            if (t.name().equals(aa)) continue;
            VarianceComponents c = VarianceComponents.of(perFork(t.name(), Quantity.RATE));
            if (Double.isNaN(c.within())) continue;
            within = Double.isNaN(within) ? c.within() : Math.max(within, c.within());
            between = Double.isNaN(between) ? c.between() : Math.max(between, c.between());
        }
        if (Double.isNaN(within)) return "plan: the pilot paired too few rounds in too few forks to size a design\n";
        Plan p = Plan.of(new VarianceComponents(between, within, 0, 0), threshold, detect, clock.setupSeconds(), clock.roundSeconds());
        String goal = String.format(Locale.ROOT, "90%% power to call a %s%% difference beyond ±%s%%", Decimals.fixed(detect * 100, 1),
                Decimals.fixed(threshold * 100, 1));
        String pilot = String.format(Locale.ROOT, "pilot: %s%% from round to round, %s%% between forks; a fork takes %.1f s to start, warm "
                + "and stop, a round %.1f s", Decimals.fixed(Math.sqrt(within) * 100, 1), Decimals.fixed(Math.sqrt(between) * 100, 1),
                clock.setupSeconds(), clock.roundSeconds());
        if (!p.reachable()) {
            return "plan: " + goal + " needs more than " + Plan.MAX_FORKS + " forks at this noise (" + pilot + "): quiet the machine or "
                    + "raise --detect\n";
        }
        return String.format(Locale.ROOT, "plan: %s: --forks %d --rounds %d, about %s (%s); rounds per fork by Kalibera and Jones' rule%n",
                goal, p.forks(), p.rounds(), niolab.common.Durations.format(java.time.Duration.ofSeconds(Math.round(p.seconds()))), pilot);
    }

    /** {@code source}: "--threshold" or "default"; {@code looksCount}: a run until decided's looks, or null. */
    BenchComparison json(BenchComparison.Config config, String thresholdSource, Integer looksCount) {
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
            comparisons.add(new BenchComparison.Comparison(t.name(), targets.get(0).name(), json(ratio(t, Quantity.RATE), clientBound(t)),
                    json(ratio(t, Quantity.COST), null), json(ratio(t, Quantity.LATENCY), null)));
        }
        return new BenchComparison(BenchReport.TOOL, BenchReport.SCHEMA, BenchComparison.COMMAND, config, JsonReport.environment(),
                servers, rows, new BenchComparison.Summary(perServer, comparisons, forks(), ForkInterval.METHOD, aa,
                        ResultsJson.orNull(floor(Quantity.RATE)), threshold, thresholdSource, level, looksCount));
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

    /** {@code clientBound}: the words of a client-bound rate, which replace its verdict's; null otherwise. */
    private static BenchComparison.Ratio json(Ratio r, String clientBound) {
        if (r == null) return null;
        Interval i = r.interval();
        return new BenchComparison.Ratio(r.pairs(), i.estimate(), i.low(), i.high(), Comparison.direction(i).name().toLowerCase(Locale.ROOT),
                clientBound != null ? clientBound : r.words(), clientBound != null ? "client-bound" : r.verdict().name().toLowerCase(Locale.ROOT),
                r.threshold(), ResultsJson.orNull(r.floor()), r.measured().forks(), ResultsJson.orNull(r.measured().betweenShare()),
                ResultsJson.orNull(r.detectable()));
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
