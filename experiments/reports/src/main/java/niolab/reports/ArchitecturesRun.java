package niolab.reports;

import static niolab.reports.ArchitecturesExperiment.LABELS;
import static niolab.reports.ArchitecturesExperiment.PING;
import static niolab.reports.ArchitecturesExperiment.PIPELINE;
import static niolab.reports.ArchitecturesExperiment.SHORT;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import niolab.common.results.BenchComparison;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;

/**
 * The run's raw files, read once: per server, measure and round, the rate and the server's
 * CPU per request: one {@code echo-bench compare} JSON per measure, a slice per server and
 * round in a fresh random order, so round i of two servers saw the same stretch of the
 * machine and ratios pair by round.
 */
public final class ArchitecturesRun {
    final Results r;
    final Csv settings, ready, idle, proc;
    final List<String> servers = new ArrayList<>(), levels;
    final int cores;
    /** The report's declared threshold ({@link ArchitecturesExperiment#THRESHOLD}). */
    final double threshold;
    /** The compare runs by measure. */
    private final Map<String, BenchComparison> compared = new LinkedHashMap<>();

    public ArchitecturesRun(Results r) {
        this.r = r;
        settings = r.csv("settings.csv");
        ready = r.csv("ready.csv");
        idle = r.csv("idle.csv");
        proc = r.csv("proc.csv");
        List<String> ran = List.of(setting("servers").split(" "));
        for (String s : LABELS.keySet()) {
            if (ran.contains(s)) servers.add(s);
        }
        levels = List.of(setting("levels").split(" "));
        cores = r.json("env.json", RunEnvironment.class).cores();
        threshold = ArchitecturesExperiment.THRESHOLD.value();
        if (!"compare".equals(optional("design"))) {
            throw new IllegalArgumentException(r.dir.resolve("settings.csv") + " is a run of the sequential design, which this"
                    + " generator no longer reads: rerun make exp-architectures");
        }
        List<String> measures = new ArrayList<>();
        for (String c : levels) measures.add("echo-ka-" + c);
        measures.addAll(List.of(SHORT, PING, PIPELINE));
        for (String m : measures) {
            // the script runs every measure: a missing one is a compare that died, said as such
            if (!r.has("compare-" + m + ".json")) {
                throw new IllegalStateException("the " + m + " compare wrote no compare-" + m + ".json: its printout (compare-" + m
                        + ".txt) says why; rerun make exp-architectures");
            }
            compared.put(m, r.json("compare-" + m + ".json", BenchComparison.class));
        }
    }

    /** A setting, or null when this run's design has no such knob. */
    String optional(String key) {
        for (Map<String, String> row : settings.rows()) {
            if (row.get("key").equals(key)) return row.get("value");
        }
        return null;
    }

    String setting(String key) {
        return settings.row("key", key).get("value");
    }

    String label(String s) {
        return LABELS.get(s).replace("{n}", setting("loops"));
    }

    List<String> echoServers() {
        List<String> echo = new ArrayList<>(servers);
        echo.removeIf(s -> !has(s, SHORT));
        return echo;
    }

    /** The keep-alive echo measure at the most connections. */
    String top() {
        return "echo-ka-" + topLevel();
    }

    String topLevel() {
        return levels.get(levels.size() - 1);
    }

    /** How many echo servers served measure {@code m} (some requests, no error). */
    int clean(String m) {
        int n = 0;
        for (String s : echoServers()) {
            if (errors(s, m) == 0 && rate(s, m) > 0) n++;
        }
        return n;
    }

    /** The rounds of measure {@code m} over all its forks (compare numbers them across forks): each server's slices in it. */
    int rounds(String m) {
        return compared.get(m).config().rounds() * forks(m);
    }

    /** The forks (fresh server processes) measure {@code m} ran in. */
    int forks(String m) {
        Integer forks = compared.get(m).config().forks();
        return forks == null ? 1 : forks;
    }

    public boolean has(String s, String m) {
        BenchComparison c = compared.get(m);
        if (c == null) return false;
        for (BenchComparison.Server server : c.servers()) {
            if (server.name().equals(s)) return true;
        }
        return false;
    }

    /** Server {@code s}'s slice in round {@code round} of measure {@code m}, or null. */
    private BenchComparison.Slice slice(String s, String m, int round) {
        for (BenchComparison.Slice x : compared.get(m).slices()) {
            if (x.round() == round && x.server().equals(s)) return x;
        }
        return null;
    }

    /** Requests per second, median over the rounds that served. */
    double rate(String s, String m) {
        return Stats.median(finite(rates(s, m)));
    }

    /** Requests per second, one per round in round order; NaN for a round without a figure. */
    public double[] rates(String s, String m) {
        double[] v = new double[rounds(m)];
        for (int i = 0; i < v.length; i++) {
            BenchComparison.Slice x = slice(s, m, i + 1);
            v[i] = x == null || x.rate() == null || x.refused() ? Double.NaN : x.rate();
        }
        return v;
    }

    /** Server CPU µs per request, median over the rounds that measured it. */
    double cpu(String s, String m) {
        double[] v = finite(cpus(s, m));
        return v.length == 0 ? Double.NaN : Stats.median(v);
    }

    /** Server CPU µs per request, one per round: compare's reading of the server's /proc over each slice. */
    double[] cpus(String s, String m) {
        double[] v = new double[rounds(m)];
        for (int i = 0; i < v.length; i++) {
            BenchComparison.Slice x = slice(s, m, i + 1);
            v[i] = x == null || x.serverCpuUsPerRequest() == null ? Double.NaN : x.serverCpuUsPerRequest();
        }
        return v;
    }

    /** vt's keep-alive echo rate over lt's at the run's connections, paired by round; null when the run lacks either. */
    public Interval vtOverLtEcho() {
        String at = "echo-ka-" + setting("connections");
        return has("vt", at) && has("lt", at) ? rateRatio("vt", "lt", at) : null;
    }

    /** The median of {@code a}'s per-round rates over {@code b}'s, with its interval; null under 2 paired rounds. */
    Interval rateRatio(String a, String b, String m) {
        ForkInterval f = rateDesign(a, b, m);
        return f == null ? null : f.ratio();
    }

    /** The same for server CPU per request: its own rounds' ratios, never the rates' spread. */
    Interval cpuRatio(String a, String b, String m) {
        ForkInterval f = cpuDesign(a, b, m);
        return f == null ? null : f.ratio();
    }

    /** {@link #rateRatio} with its design, for a claim that says what it could decide. */
    ForkInterval rateDesign(String a, String b, String m) {
        return paired(rates(a, m), rates(b, m), forks(m));
    }

    ForkInterval cpuDesign(String a, String b, String m) {
        return paired(cpus(a, m), cpus(b, m), forks(m));
    }

    /** The median of a rate or CPU figure over the rounds, with its interval; null without 2 rounds. */
    static Interval median(double[] v) {
        double[] x = finite(v);
        return x.length < 2 ? null : Claim.median(x);
    }

    /** The median of numer[i] / denom[i] over the rounds where both have a figure; null under 2 such rounds. */
    static ForkInterval paired(double[] numer, double[] denom) {
        List<double[]> pairs = new ArrayList<>();
        for (int i = 0; i < Math.min(numer.length, denom.length); i++) {
            if (Double.isFinite(numer[i]) && Double.isFinite(denom[i]) && denom[i] > 0) pairs.add(new double[] {numer[i], denom[i]});
        }
        if (pairs.size() < 2) return null;
        double[] n = new double[pairs.size()], d = new double[pairs.size()];
        for (int i = 0; i < n.length; i++) {
            n[i] = pairs.get(i)[0];
            d[i] = pairs.get(i)[1];
        }
        return Claim.paired(n, d);
    }

    /**
     * The same over {@code forks} forks of equal rounds (index i in fork i / rounds per fork), at the fork level
     * ({@link CompareRun#forkLevel}): the interval spans fresh processes.
     */
    static ForkInterval paired(double[] numer, double[] denom, int forks) {
        if (forks < 2) return paired(numer, denom);
        int perFork = numer.length / forks;
        List<double[]> pairs = new ArrayList<>();
        for (int i = 0; i < Math.min(numer.length, denom.length); i++) {
            if (Double.isFinite(numer[i]) && Double.isFinite(denom[i]) && denom[i] > 0) pairs.add(new double[] {numer[i], denom[i], i / perFork});
        }
        if (pairs.size() < 2) return null;
        double[] n = new double[pairs.size()], d = new double[pairs.size()];
        int[] fork = new int[pairs.size()];
        for (int i = 0; i < n.length; i++) {
            n[i] = pairs.get(i)[0];
            d[i] = pairs.get(i)[1];
            fork[i] = (int) pairs.get(i)[2];
        }
        return CompareRun.forkLevel(n, d, fork);
    }

    /** The rounds of a paired ratio: those where both servers have a figure. */
    static int pairedRounds(double[] numer, double[] denom) {
        int n = 0;
        for (int i = 0; i < Math.min(numer.length, denom.length); i++) {
            if (Double.isFinite(numer[i]) && Double.isFinite(denom[i]) && denom[i] > 0) n++;
        }
        return n;
    }

    public static double[] finite(double[] v) {
        int n = 0;
        for (double x : v) {
            if (Double.isFinite(x)) n++;
        }
        double[] out = new double[n];
        n = 0;
        for (double x : v) {
            if (Double.isFinite(x)) out[n++] = x;
        }
        return out;
    }

    /**
     * Context switches of the server per request, counted around the whole compare run over
     * the slices' requests (the warm-up's switches counted, its requests not: a slight
     * overstatement).
     */
    double switches(String s, String m) {
        Map<String, String> row = proc.row("server", s, "measure", m);
        double requests = 0;
        // a run in forks samples /proc around a compare of its own, on servers that stay up
        String own = "raw/proc-compare-" + m + ".json";
        for (BenchComparison.Slice x : (r.has(own) ? r.json(own, BenchComparison.class) : compared.get(m)).slices()) {
            if (x.server().equals(s)) requests += x.requests();
        }
        return (Csv.number(row.get("voluntary")) + Csv.number(row.get("nonvoluntary"))) / requests;
    }

    long errors(String s, String m) {
        long e = 0;
        for (BenchComparison.Slice x : compared.get(m).slices()) {
            if (x.server().equals(s)) e += x.errors();
        }
        return e;
    }

    boolean hasIdle(String s) {
        return idle.numbers("rss_kb", "server", s).length > 0;
    }

    double rssMb(String s) {
        return Csv.number(idle.row("server", s).get("rss_kb")) / 1024;
    }
}
