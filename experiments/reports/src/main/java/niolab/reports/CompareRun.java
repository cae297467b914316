package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import niolab.common.results.BenchComparison;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;

/**
 * One {@code echo-bench compare --json} run of an experiment (random order per round, paired
 * slices): its table, and the ratio of any two of its servers, paired by round, as a claim's
 * interval. The generator computes every interval from the slices,
 * so that a report regenerates byte for byte and the table and the claims agree.
 */
public final class CompareRun {
    final BenchComparison json;
    /** The report's declared threshold ({@link Threshold}): a ratio within 1 ± it is no difference. */
    final double threshold;

    private CompareRun(BenchComparison json, double threshold) {
        this.json = json;
        this.threshold = threshold;
    }

    /** A compare file of {@code r}'s run, its verdicts against the report's declared {@code threshold}. */
    public static CompareRun of(Results r, String file, Threshold threshold) {
        return new CompareRun(r.json(file, BenchComparison.class), threshold.value());
    }

    String baseline() {
        return json.servers().get(0).name();
    }

    /** "20 rounds of 1 s slices": the design the table's figures come from. */
    String design() {
        return (forks() > 1 ? forks() + " forks (fresh server processes) of " : "") + json.config().rounds() + " rounds of " + Md.f2(json.config().sliceS()) + " s slices, each round in a fresh random order"
                + " (seed " + json.config().seed() + ")";
    }

    /** "**echo-50**, 10 rounds of 1.00 s slices, ... (seed 7):" and the table: one workload's part of a report. */
    String section(String label) {
        return "**" + label + "**, " + design() + ":\n\n" + table();
    }

    /** Per server: median rate and range, CPU and p99, and its rate and CPU ratios to the baseline with their intervals and verdicts. */
    String table() {
        List<List<String>> rows = new ArrayList<>();
        for (BenchComparison.ServerSummary s : json.summary().servers()) {
            boolean base = s.name().equals(baseline());
            Interval rate = base ? null : ratio(s.name(), baseline(), RATE);
            Interval cpu = base ? null : ratio(s.name(), baseline(), CPU);
            rows.add(List.of(s.name() + (died(s.name()) == null ? "" : " (died: " + died(s.name()) + ")"),
                    s.medianRate() == null ? "–" : Md.f0(s.medianRate()),
                    s.minRate() == null ? "–" : Md.f0(s.minRate()) + " – " + Md.f0(s.maxRate()),
                    orDash(s.medianCpuUsPerRequest()), s.medianP99Us() == null ? "–" : Md.f0(s.medianP99Us()),
                    base ? "baseline" : words(rate, Comparison.Quantity.RATE), base ? "–" : words(cpu, Comparison.Quantity.COST)));
        }
        return Md.table(List.of("server", "req/s (median)", "range over slices", "CPU µs/req", "p99 µs",
                "rate / " + baseline() + ", 95% interval", "CPU per request / " + baseline()), rows);
    }

    static final int RATE = 0, CPU = 1, P50 = 2, P99 = 3;

    /**
     * {@code numer}'s quantity over {@code denom}'s (RATE, CPU per request, P50 or P99), the median of the
     * ratios of the rounds in which both served, with its 95% interval (the report's fixed
     * seed); null when fewer than {@link MedianInterval#MIN_ROUNDS} rounds pair, as echo-bench
     * compare itself gives none: so few rounds' interval covers noticeably less than 95%.
     */
    Interval ratio(String numer, String denom, int quantity) {
        ForkInterval r = forkRatio(numer, denom, quantity);
        return r == null ? null : r.ratio();
    }

    /**
     * The same with how it was computed: a run in forks (fresh server processes, echo-bench compare
     * --forks) gets {@link ForkInterval}'s interval over the forks' medians, the level where the
     * variance between runs lives; a run in one fork the order-statistic interval of its rounds.
     */
    ForkInterval forkRatio(String numer, String denom, int quantity) {
        Map<Integer, Double> a = byRound(numer, quantity), b = byRound(denom, quantity);
        Map<Integer, Integer> forkOf = new TreeMap<>();
        for (BenchComparison.Slice s : json.slices()) forkOf.put(s.round(), s.fork() == null ? 1 : s.fork());
        List<Double> n = new ArrayList<>(), d = new ArrayList<>();
        List<Integer> forks = new ArrayList<>();
        for (Map.Entry<Integer, Double> e : a.entrySet()) {
            Double other = b.get(e.getKey());
            if (other != null && other > 0) {
                n.add(e.getValue());
                d.add(other);
                forks.add(forkOf.get(e.getKey()));
            }
        }
        if (n.size() < MedianInterval.MIN_ROUNDS) return null;
        int[] fork = new int[forks.size()];
        for (int i = 0; i < fork.length; i++) fork[i] = forks.get(i);
        return forkLevel(toArray(n), toArray(d), fork);
    }

    /**
     * The ratio of {@code numer[i]} to {@code denom[i]} (a pair a round, {@code fork[i]} the fork it
     * ran in) at the fork level: {@link ForkInterval} over the forks' per-round ratios; within one
     * fork the order-statistic interval of its rounds ({@link Claim#ratio}). For the reports that
     * pair rounds themselves, so that a run in forks reads as compare's own ratios do.
     */
    static ForkInterval forkLevel(double[] numer, double[] denom, int[] fork) {
        Map<Integer, List<Double>> byFork = new TreeMap<>();
        for (int i = 0; i < numer.length; i++) {
            // a zero (no CPU tick in a slice, nothing served) has no log: the forks' medians are of the rounds that measured
            if (numer[i] > 0) byFork.computeIfAbsent(fork[i], k -> new ArrayList<>()).add(numer[i] / denom[i]);
        }
        if (byFork.size() < 2) {
            // one fork: the order-statistic interval of every round, and the standard error of the rounds that measured, for its power
            double se = byFork.isEmpty() ? Double.NaN : ForkInterval.of(new double[][] {toArray(byFork.values().iterator().next())}).logSe();
            return new ForkInterval(Claim.ratio(numer, denom), 1, numer.length, Double.NaN, MedianInterval.LEVEL, se, 0);
        }
        double[][] ratios = new double[byFork.size()][];
        int f = 0;
        for (List<Double> r : byFork.values()) ratios[f++] = toArray(r);
        return ForkInterval.of(ratios);
    }

    /** The same of {numer, denom, fork} rows, a pair a column: the shape the reports that pair rounds themselves build. */
    static ForkInterval forkLevel(double[][] pairs) {
        int[] fork = new int[pairs[2].length];
        for (int i = 0; i < fork.length; i++) fork[i] = (int) pairs[2][i];
        return forkLevel(pairs[0], pairs[1], fork);
    }

    /** The forks of this run: 1 for a file written before forks. */
    int forks() {
        Integer forks = json.config().forks();
        return forks == null ? 1 : forks;
    }

    /** How a ratio and its interval come from this run's rounds, in words, for a report's design sentence. */
    String ratioMethod() {
        return forks() < 2 ? "the median of the rounds' own ratios with a 95% interval"
                : "per fork the median of the rounds' own ratios, with a 95% interval across the " + forks() + " forks (fresh server"
                        + " processes; a Student-t interval of the forks' log-medians), which holds the variation between processes";
    }

    /**
     * For a run in {@code forks} forks (2 or more) of {@code rounds} rounds, replaces the precision
     * sentence {@link Claim#report} put ({@code claims_precision}, which speaks of one fork's rounds)
     * with {@link #forkPrecision}'s, keeping the family's sentence; a run in one fork keeps it.
     */
    static void forkPrecision(Report out, int forks, int rounds) {
        if (forks < 2) return;
        out.put("claims_precision", forkPrecision(forks, rounds) + " " + out.values.get("claims_family"));
    }

    static String lowerFirst(String s) {
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /** The rounds per fork of this run. */
    int roundsPerFork() {
        return json.config().rounds();
    }

    /** What an interval of a run in {@code forks} forks of {@code rounds} rounds rests on, in words. */
    static String forkPrecision(int forks, int rounds) {
        return "Each interval comes from " + forks + " forks (fresh server processes) of " + rounds + " rounds each: per fork the"
                + " median of its per-round values (a ratio's from the rounds' ratios, paired by round), across the forks a Student-t"
                + " 95% interval of the mean of their log-medians (" + (forks - 1) + " degrees of freedom), so that it holds the"
                + " variation between fresh processes, which one fork's rounds leave out. An undecided claim is one whose interval"
                + " straddles its bound: more forks (or a quieter machine) would narrow it.";
    }

    /** {@code server}'s rate in each round it served, in round order. */
    public double[] rates(String server) {
        return values(server, RATE);
    }

    /** {@code server}'s quantity (RATE, CPU, P50 or P99) in each round it served, in round order. */
    double[] values(String server, int quantity) {
        return toArray(new ArrayList<>(byRound(server, quantity).values()));
    }

    /**
     * {@code server}'s rate in this run and in {@code other} (another compare run of the same
     * servers), paired by round number where both served: {numer, denom, fork} (the fork of the
     * round in this run). The runs follow each other, so a pair is not simultaneous and the drift
     * between the runs lands in its ratio.
     */
    double[][] ratesAcross(CompareRun other, String server) {
        Map<Integer, Double> a = byRound(server, RATE), b = other.byRound(server, RATE);
        Map<Integer, Integer> forkOf = new TreeMap<>();
        for (BenchComparison.Slice s : json.slices()) forkOf.put(s.round(), s.fork() == null ? 1 : s.fork());
        List<Double> n = new ArrayList<>(), d = new ArrayList<>(), f = new ArrayList<>();
        for (Map.Entry<Integer, Double> e : a.entrySet()) {
            Double x = b.get(e.getKey());
            if (e.getValue() > 0 && x != null && x > 0) {
                n.add(e.getValue());
                d.add(x);
                f.add((double) forkOf.get(e.getKey()));
            }
        }
        return new double[][] {toArray(n), toArray(d), toArray(f)};
    }

    /** How many rounds pair {@code numer} with {@code denom} in their rates. */
    int rounds(String numer, String denom) {
        Map<Integer, Double> b = byRound(denom, RATE);
        int k = 0;
        for (Integer round : byRound(numer, RATE).keySet()) {
            if (b.containsKey(round)) k++;
        }
        return k;
    }

    /** {@code server}'s medians over its slices, as compare summed them up. */
    BenchComparison.ServerSummary summary(String server) {
        for (BenchComparison.ServerSummary s : json.summary().servers()) {
            if (s.name().equals(server)) return s;
        }
        throw new IllegalArgumentException("no server " + server + " in this compare run");
    }

    public boolean has(String server) {
        for (BenchComparison.Server s : json.servers()) {
            if (s.name().equals(server)) return true;
        }
        return false;
    }

    private Map<Integer, Double> byRound(String server, int quantity) {
        Map<Integer, Double> v = new TreeMap<>();
        for (BenchComparison.Slice s : json.slices()) {
            Double x = quantity == RATE ? s.rate() : quantity == CPU ? s.serverCpuUsPerRequest() : quantity == P50 ? s.p50Us() : s.p99Us();
            if (s.server().equals(server) && !s.refused() && x != null) v.put(s.round(), x);
        }
        return v;
    }

    private static double[] toArray(List<Double> v) {
        double[] a = new double[v.size()];
        for (int i = 0; i < a.length; i++) a[i] = v.get(i);
        return a;
    }

    private String died(String server) {
        for (BenchComparison.Server s : json.servers()) {
            if (s.name().equals(server)) return s.died();
        }
        return null;
    }

    /** "0.93 [0.90, 0.97]: slower by 7% [3%, 10%] (threshold ±2.0%)", against the report's declared threshold. */
    String words(Interval r, Comparison.Quantity quantity) {
        return words(r, quantity, threshold);
    }

    /** The same against {@code threshold}: a verdict in words through {@link Comparison#describe(Interval, Comparison.Quantity, double)}. */
    static String words(Interval r, Comparison.Quantity quantity, double threshold) {
        if (r == null) return "too few paired rounds for an interval (" + MedianInterval.MIN_ROUNDS + " needed)";
        return Md.interval(r, 1, 1 - threshold, 1 + threshold) + ": " + Comparison.describe(r, quantity, threshold);
    }

    private static String orDash(Double v) {
        return v == null ? "–" : Md.f2(v);
    }
}
