package niolab.reports;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchComparison.Slice;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Comparison.Quantity;
import niolab.common.stats.Interval;

/**
 * exp-vt: the lab's claims on vt and vt's knobs in paired random-order rounds. {@code echo-bench
 * compare} files (ping.json, echo.json, short.json) and the C keepalive-client's rounds
 * (echo-c.csv: round, position, server, rate); every ratio is the median of the per-round ratios,
 * paired by round, with the median interval of {@link Claim}: one statistic for the Java and
 * the C client alike.
 */
public final class VtExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05,
            "virtual threads against a selector loop: {size} of rate or CPU per request would change a design's choice");

    /** The lab's claim, declared before any run: vt keeps at least 0.7× lt's keep-alive echo rate, the loss its simpler code is worth. */
    static final double VT_RATE_BOUND = 0.7;

    /** What the claims measure, as their statements name it. */
    private static final String PING_CPU = "server CPU per keep-alive /ping", ECHO_RATE = "keep-alive echo rate at 50 connections",
            SHORT_CPU = "server CPU per short connection";

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    @Override
    public String name() {
        return "vt";
    }

    /** One server of the run, from servers.csv: its name and the JVM and server options it ran with. */
    record Server(String name, String options) {
    }

    /** exp-noise's calibration reruns of vt against lt: how many estimates fell below the bound, how many intervals held or failed it. */
    record Reruns(int n, int belowEstimate, int whollyAbove, int whollyBelow) {
    }

    /**
     * The run: servers.csv's servers (null: not recorded), the compare runs (null where not run),
     * the C client's rates paired by round ([vt's, lt's]; null where not run), exp-architectures'
     * vt/lt echo interval and exp-noise's reruns (null where not committed).
     */
    record Data(List<Server> servers, BenchComparison pingWrk, BenchComparison ping, BenchComparison echo, BenchComparison shortRun,
            double[][] echoC, Interval architectures, Reruns reruns) {
    }

    /** Where one client's vt/lt interval lies against exp-architectures': none to compare with, overlapping, or apart. */
    enum Relation { NO_ARCHITECTURES, OVERLAPS, APART }

    /**
     * One client's vt/lt keep-alive echo interval and where it lies against exp-architectures' (null: none committed);
     * {@code client} is the template's name for it, "eb" (echo-bench) or "c" (the C keepalive-client).
     */
    record Side(String client, Interval ratio, Interval architectures, Relation relation) {
    }

    /** The clients whose vt/lt echo interval the template places against exp-architectures', in its order. */
    private static final String[] CLIENTS = {"eb", "c"};

    /**
     * What the run found: the claims, the C client's vt/lt interval (null where not run), each
     * client's side of exp-architectures' interval, the forks and rounds of the forked compare
     * run (0 forks: not recorded), and exp-noise's reruns.
     */
    record Findings(Data data, List<Claim> claims, Interval echoC, List<Side> sides, int forks, int rounds, Reruns reruns) {
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static Data load(Results r) {
        List<Server> servers = null;
        if (r.has("servers.csv")) {
            servers = new ArrayList<>();
            for (Map<String, String> row : r.csv("servers.csv").rows()) {
                servers.add(new Server(row.get("name"), (row.get("jvm_options") + " " + row.get("server_options")).trim()));
            }
        }
        return new Data(servers, load(r, "ping-wrk.json"), load(r, "ping.json"), load(r, "echo.json"), load(r, "short.json"),
                r.has("echo-c.csv") ? pairsC(r.csv("echo-c.csv")) : null, architecturesEcho(r), noiseReruns(r));
    }

    static Findings analyse(Data d) {
        List<Claim> claims = new ArrayList<>();
        if (d.ping != null) {
            claims.add(claim(PING_CPU, "echo-bench compare", d.ping, "vt", "lt", Slice::serverCpuUsPerRequest, 1.25, false));
        }
        if (d.pingWrk != null) {
            claims.add(claim(PING_CPU, "wrk", d.pingWrk, "vt", "lt", Slice::serverCpuUsPerRequest, 1.25, false));
        }
        List<Side> sides = new ArrayList<>();
        if (d.echo != null) {
            sides.add(side("eb", ratio(d.echo, "vt", "lt", Slice::rate), d.architectures));
            claims.add(claim(ECHO_RATE, "echo-bench compare", d.echo, "vt", "lt", Slice::rate, VT_RATE_BOUND, true));
        }
        Interval echoC = null;
        if (d.echoC != null) {
            ForkInterval c = Claim.paired(d.echoC[0], d.echoC[1]);
            echoC = c.ratio();
            sides.add(side("c", echoC, d.architectures));
            claims.add(Claim.atLeast(statement("vt", ECHO_RATE, true, VT_RATE_BOUND, "lt", "the C keepalive-client"), c, d.echoC[0].length,
                    VT_RATE_BOUND));
        }
        if (d.shortRun != null) {
            for (BenchComparison.Server s : d.shortRun.servers()) {
                if (!s.name().startsWith("lt")) continue;
                claims.add(claim(SHORT_CPU, "echo-bench compare, serial", d.shortRun, s.name(), "c", Slice::serverCpuUsPerRequest, 1.2, false));
            }
        }
        sides.removeIf(x -> Double.isNaN(x.ratio.estimate()));
        BenchComparison forked = d.echo != null ? d.echo : d.ping;
        boolean recorded = forked != null && forked.config() != null && forked.config().forks() != null;
        return new Findings(d, claims, echoC, sides, recorded ? forked.config().forks() : 0, recorded ? forked.config().rounds() : 0, d.reruns);
    }

    static void render(Findings f, Report out) {
        Data d = f.data;
        double t = THRESHOLD.value();
        out.put("servers", servers(d.servers));
        out.put("table_ping_wrk", table(d.pingWrk, "lt", t));
        out.put("table_ping", table(d.ping, "lt", t));
        out.put("table_echo", table(d.echo, "lt", t));
        out.put("table_short", table(d.shortRun, "c", t));
        out.put("echo_c_measured", f.echoC != null);
        if (f.echoC != null) {
            out.put("echo_c_rounds", Integer.toString(d.echoC[0].length));
            out.put("echo_c_vt", Md.f0(Stats.median(d.echoC[0])));
            out.put("echo_c_lt", Md.f0(Stats.median(d.echoC[1])));
            out.put("echo_c_ratio", CompareRun.words(f.echoC, Quantity.RATE, t));
        }
        out.put("knobs_ping", knobs(d.ping, Slice::serverCpuUsPerRequest, Quantity.COST, t));
        out.put("knobs_echo", knobs(d.echo, Slice::rate, Quantity.RATE, t));
        gap(f.sides, d.architectures, out);
        Claim.report(f.claims, "ratio", out);
        if (f.forks > 0) CompareRun.forkPrecision(out, f.forks, f.rounds);
        out.put("c_client_one_fork", f.forks > 1 && d.echoC != null ? "yes" : "no");
        out.put("noise_reruns", f.reruns == null ? "no" : "yes");
        if (f.reruns != null) {
            out.put("reruns", Integer.toString(f.reruns.n));
            out.put("reruns_below_estimate", Integer.toString(f.reruns.belowEstimate));
            out.put("reruns_held", Integer.toString(f.reruns.whollyAbove));
            out.put("reruns_failed", Integer.toString(f.reruns.whollyBelow));
            out.put("rate_bound", Md.f2(VT_RATE_BOUND));
        }
    }

    /**
     * What exp-noise's calibration reruns of the same comparison (vt against lt, keep-alive echo at
     * 50 connections, in forks) say of the 0.7× claim: one run's "holds" is that run's, and the
     * reruns show how far another run lands. Null where exp-noise kept no such reruns.
     */
    static Reruns noiseReruns(Results vt) {
        Path dir = vt.dir.resolveSibling("noise").resolve("forks");
        if (!Files.isRegularFile(dir.resolve("env.json"))) return null;
        Results forks = new Results(dir);
        List<String> runs = forks.files("cal-f[2-9]-*.json");
        int n = 0, belowEstimate = 0, whollyBelow = 0, whollyAbove = 0;
        for (String file : runs) {
            ForkInterval f = CompareRun.of(forks, file, THRESHOLD).forkRatio("vt", "lt", CompareRun.RATE);
            if (f == null) continue;
            n++;
            if (f.ratio().estimate() < VT_RATE_BOUND) belowEstimate++;
            if (f.ratio().high() < VT_RATE_BOUND) whollyBelow++;
            if (f.ratio().low() >= VT_RATE_BOUND) whollyAbove++;
        }
        return n == 0 ? null : new Reruns(n, belowEstimate, whollyAbove, whollyBelow);
    }

    private static BenchComparison load(Results r, String file) {
        return r.has(file) ? r.json(file, BenchComparison.class) : null;
    }

    /** "vt-poller1 (-Djdk.pollerMode=1), ...": the knobs this run measured, from servers.csv. */
    private static String servers(List<Server> servers) {
        if (servers == null) return "not recorded";
        Set<String> parts = new LinkedHashSet<>();
        for (Server s : servers) parts.add("`" + s.name + "`" + (s.options.isEmpty() ? "" : " (`" + s.options + "`)"));
        return String.join(", ", parts);
    }

    /** The per-round values of {@code metric} for {@code a} and {@code b}, paired by round (rounds where either is missing are left out), and each pair's fork. */
    static double[][] pairs(BenchComparison c, String a, String b, Function<Slice, Double> metric) {
        List<double[]> out = new ArrayList<>();
        for (Slice sa : c.slices()) {
            Double va = sa.server().equals(a) ? value(sa, metric) : null;
            if (va == null) continue;
            for (Slice sb : c.slices()) {
                Double vb = sb.server().equals(b) && sb.round() == sa.round() ? value(sb, metric) : null;
                if (vb != null) out.add(new double[] {va, vb, sa.fork() == null ? 1 : sa.fork()});
            }
        }
        double[][] v = new double[3][out.size()];
        for (int i = 0; i < out.size(); i++) {
            v[0][i] = out.get(i)[0];
            v[1][i] = out.get(i)[1];
            v[2][i] = out.get(i)[2];
        }
        return v;
    }

    /** A slice's value, or null where it has none (refused, never served, no pid for CPU). */
    private static Double value(Slice s, Function<Slice, Double> metric) {
        Double v = s.refused() ? null : metric.apply(s);
        return v != null && v > 0 ? v : null;
    }

    /** The paired ratio at the fork level ({@link CompareRun#forkLevel}): a run in forks gets an interval over fresh processes. */
    static Interval ratio(BenchComparison c, String a, String b, Function<Slice, Double> metric) {
        double[][] p = pairs(c, a, b, metric);
        return p[0].length == 0 ? Interval.exactly(Double.NaN) : CompareRun.forkLevel(p).ratio();
    }

    /**
     * A claim on {@code a}'s metric over {@code b}'s, paired by round, with its design; "at least" or "at most" {@code bound}:
     * {@code what} names the metric in the statement and {@code client} the load generator that measured it.
     */
    private static Claim claim(String what, String client, BenchComparison c, String a, String b, Function<Slice, Double> metric,
            double bound, boolean atLeast) {
        String statement = statement(a, what, atLeast, bound, b, client);
        double[][] p = pairs(c, a, b, metric);
        int n = p[0].length;
        if (n == 0) {
            Interval none = Interval.exactly(Double.NaN);
            return atLeast ? Claim.atLeast(statement, none, 0, bound) : Claim.atMost(statement, none, 0, bound);
        }
        ForkInterval f = CompareRun.forkLevel(p);
        return atLeast ? Claim.atLeast(statement, f, n, bound) : Claim.atMost(statement, f, n, bound);
    }

    /** "vt's WHAT within 1.25× lt's (CLIENT)": a claim's statement, its bound written from the bound the claim checks. */
    static String statement(String a, String what, boolean atLeast, double bound, String b, String client) {
        return a + "'s " + what + (atLeast ? " at least " : " within ") + bound + "× " + b + "'s (" + client + ")";
    }

    /** echo-c.csv's rates paired by round: [vt's, lt's]. */
    static double[][] pairsC(Csv csv) {
        List<double[]> out = new ArrayList<>();
        Set<String> rounds = new LinkedHashSet<>();
        for (Map<String, String> row : csv.rows()) rounds.add(row.get("round"));
        for (String round : rounds) {
            double[] vt = csv.numbers("rate", "round", round, "server", "vt"), lt = csv.numbers("rate", "round", round, "server", "lt");
            if (vt.length == 1 && lt.length == 1 && vt[0] > 0 && lt[0] > 0) out.add(new double[] {vt[0], lt[0]});
        }
        double[][] v = new double[2][out.size()];
        for (int i = 0; i < out.size(); i++) {
            v[0][i] = out.get(i)[0];
            v[1][i] = out.get(i)[1];
        }
        return v;
    }

    /** Per server: medians, and its rate and CPU ratios to the baseline (and a knob's to plain vt), each with its interval and words. */
    private static String table(BenchComparison c, String baseline, double threshold) {
        if (c == null) return "Not measured in this run.";
        List<List<String>> rows = new ArrayList<>();
        for (BenchComparison.ServerSummary s : c.summary().servers()) {
            List<String> row = new ArrayList<>(List.of(s.name(), Integer.toString(s.slices()), s.medianRate() == null ? "–" : Md.f0(s.medianRate()),
                    s.medianCpuUsPerRequest() == null ? "–" : Md.f2(s.medianCpuUsPerRequest())));
            row.add(s.name().equals(baseline) ? "baseline" : words(c, s.name(), baseline, Slice::rate, Quantity.RATE, threshold));
            row.add(s.name().equals(baseline) ? "baseline" : words(c, s.name(), baseline, Slice::serverCpuUsPerRequest, Quantity.COST, threshold));
            rows.add(row);
        }
        return Md.table(List.of("server", "slices", "median requests/s", "median server CPU µs/request", "rate / " + baseline,
                "server CPU per request / " + baseline), rows);
    }

    private static String words(BenchComparison c, String a, String b, Function<Slice, Double> metric, Quantity q, double threshold) {
        Interval i = ratio(c, a, b, metric);
        if (Double.isNaN(i.estimate())) return "no paired rounds";
        return CompareRun.words(i, q, threshold);
    }

    /** Each knob against plain vt: "vt-poller1: costlier by 4% [1%, 7%]; ...". */
    private static String knobs(BenchComparison c, Function<Slice, Double> metric, Quantity q, double threshold) {
        if (c == null) return "not measured in this run";
        String what = q == Quantity.RATE ? "rate" : "server CPU per request";
        List<String> parts = new ArrayList<>();
        for (BenchComparison.Server s : c.servers()) {
            if (!s.name().startsWith("vt-")) continue;
            parts.add("`" + s.name() + "` " + what + " / vt " + words(c, s.name(), "vt", metric, q, threshold));
        }
        return parts.isEmpty() ? "no knob in this run" : String.join("; ", parts);
    }

    /**
     * exp-architectures' vt/lt keep-alive echo ratio, computed from its committed results (the
     * ones its report reads), or null where there are none (a handout, a copy of this folder).
     */
    static Interval architecturesEcho(Results vt) {
        Path dir = vt.dir.resolveSibling("architectures");
        if (!Files.isRegularFile(dir.resolve("env.json"))) return null;
        return new ArchitecturesRun(new Results(dir)).vtOverLtEcho();
    }

    /**
     * Where this run's paired vt/lt echo intervals lie against exp-architectures' interval: per
     * client ({@link #CLIENTS}) its relation as a case ("absent" where not measured) and its interval.
     */
    static void gap(List<Side> sides, Interval architectures, Report out) {
        out.put("architectures_echo", architectures == null ? "–" : Md.interval(architectures));
        out.put("gap_measured", !sides.isEmpty());
        out.put("gap_both", sides.size() == CLIENTS.length);
        for (String client : CLIENTS) out.put("gap_" + client, "absent");
        for (Side x : sides) {
            out.put("gap_" + x.client, x.relation.name().toLowerCase(Locale.ROOT));
            out.put("gap_" + x.client + "_ratio", Md.interval(x.ratio));
        }
    }

    /** One client's vt/lt interval against exp-architectures' (null: none committed): an interval that overlaps it cannot tell them apart. */
    static Side side(String client, Interval i, Interval architectures) {
        Relation where = architectures == null ? Relation.NO_ARCHITECTURES
                : overlaps(i, architectures.low(), architectures.high()) ? Relation.OVERLAPS : Relation.APART;
        return new Side(client, i, architectures, where);
    }

    private static boolean overlaps(Interval i, double low, double high) {
        return i.low() <= high && i.high() >= low;
    }
}
