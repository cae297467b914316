package niolab.reports;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchMerge;
import niolab.common.results.BenchReport;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;

/**
 * exp-network: client and server in network namespaces of their own, joined through a middle
 * namespace that routes (the direct path) or relays with a fixed delay each way
 * (experiments/scripts/exp-network.sh): per protocol and path, rate, p50/p99 and server CPU per
 * request of every server, each against lt paired by round; what the relay itself costs, paired
 * with the routed path; the client's window by round-trip time; two generators merged. One
 * {@code echo-bench compare} per protocol and path (compare-*.json).
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class NetworkExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05,
            "a relay or a protocol costs something worth naming at {size} of rate or CPU per request");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    private static final String[] PROTOCOLS = {"echo", "http"};
    private static final String[] PROTOCOL_LABELS = {"echo", "`/ping`"};
    static final int RATE = 0, P50 = 1, P99 = 2, CPU = 3;
    /** How close to lt's rate a server must come at the longest round trip to be held by the window as lt is: the claim's bound. */
    static final double TIE = 0.05;
    /** The ruler's two paths, as its claim names them. */
    private static final String RELAY0 = "the relay at zero delay", ROUTED = "the routed path";

    @Override
    public String name() {
        return "network";
    }

    /**
     * One server on one path: per round its rate, p50, p99 and CPU µs per request (NaN: not measured);
     * its errors; the fork of each round (a run in forks numbers its rounds across them).
     */
    record Point(Map<Integer, double[]> byRound, long errors, Map<Integer, Integer> forkOf) {
        /** A server's rounds in one fork. */
        Point(Map<Integer, double[]> byRound, long errors) {
            this(byRound, errors, Map.of());
        }

        double[] values(int quantity) {
            return byRound.values().stream().mapToDouble(v -> v[quantity]).filter(Double::isFinite).toArray();
        }

        double median(int quantity) {
            double[] v = values(quantity);
            return v.length == 0 ? Double.NaN : Stats.median(v);
        }
    }

    /** The run, whichever design made it: the servers' rounds by protocol, path and server. */
    static final class Run {
        final List<String> archs = new ArrayList<>(), paths = new ArrayList<>();
        final Map<String, Double> rttOf = new LinkedHashMap<>(), sliceOf = new LinkedHashMap<>();
        final Map<String, Point> points = new LinkedHashMap<>();
        /** compare only: the compares the script ran that wrote no report (their printouts, .txt, say why). */
        final List<String> missing = new ArrayList<>();
        int rounds, connections;
        /** The forks of the run (FORKS=F: the series F times, fresh servers each): rounds is per fork. */
        int forks = 1;
        /** The report's declared threshold ({@link #THRESHOLD}). */
        final double threshold;
        /** compare only: the seconds the relayed targets of a protocol and path were loaded (slices and warm-ups). */
        final Map<String, Double> relayedSeconds = new LinkedHashMap<>();

        Run(Results r) {
            threshold = THRESHOLD.value();
            Csv runs = r.csv("runs.csv");
            if (!runs.header().contains("file") || runs.header().contains("arch")) {
                throw new IllegalArgumentException(r.dir.resolve("runs.csv") + " lists echo-bench runs of the sequential design, which"
                        + " this generator no longer reads: rerun make exp-network");
            }
            readCompares(r, runs);
        }

        /** One compare per path (the direct path's also holding relay0's targets, named ARCH-relay0). */
        private void readCompares(Results r, Csv runs) {
            archs.addAll(Arrays.asList(r.csv("settings.csv").row("key", "archs").get("value").split(" ")));
            for (Map<String, String> row : runs.rows()) {
                String protocol = row.get("protocol"), path = row.get("path"), suffix = row.get("suffix");
                int fork = row.get("fork") == null ? 1 : Integer.parseInt(row.get("fork"));
                forks = Math.max(forks, fork);
                if (!paths.contains(path)) paths.add(path);
                rttOf.put(path, Double.parseDouble(row.get("rtt_ms")));
                sliceOf.put(path, Double.parseDouble(row.get("slice_s")));
                if (!r.has(row.get("file"))) {
                    if (!missing.contains(row.get("file"))) missing.add(row.get("file"));
                    continue;
                }
                BenchComparison json = r.json(row.get("file"), BenchComparison.class);
                rounds = Math.max(rounds, json.config().rounds());
                connections = json.config().connections();
                double loaded = 0;
                // a fork's rounds follow the last fork's: round k of fork f is (f - 1) * rounds + k
                int first = (fork - 1) * json.config().rounds();
                for (String arch : archs) {
                    Point earlier = points.get(key(protocol, path, arch));
                    Map<Integer, double[]> byRound = earlier == null ? new TreeMap<>() : earlier.byRound();
                    Map<Integer, Integer> forkOf = earlier == null ? new TreeMap<>() : earlier.forkOf();
                    long errors = earlier == null ? 0 : earlier.errors();
                    for (BenchComparison.Slice s : json.slices()) {
                        if (!s.server().equals(arch + suffix)) continue;
                        errors += s.errors();
                        loaded += s.seconds();
                        if (s.refused() || s.rate() == null) continue;
                        byRound.put(first + s.round(), new double[] {s.rate(), orNaN(s.p50Us()), orNaN(s.p99Us()), orNaN(s.serverCpuUsPerRequest())});
                        forkOf.put(first + s.round(), fork);
                    }
                    points.put(key(protocol, path, arch), new Point(byRound, errors, forkOf));
                    loaded += json.config().warmupS();
                }
                if (!path.equals("direct")) relayedSeconds.merge(protocol + "-" + path, loaded, Double::sum);
            }
        }

        Point point(String protocol, String path, String arch) {
            return points.get(key(protocol, path, arch));
        }

        String baseline() {
            return archs.get(0);
        }

        String longest() {
            return paths.get(paths.size() - 1);
        }

        /**
         * {@code numer}'s quantity over {@code denom}'s, the median of the ratios of the rounds
         * both measured, with its interval; null under {@link MedianInterval#MIN_ROUNDS} such
         * rounds, as echo-bench compare gives none: so few rounds' interval covers noticeably less than 95%.
         */
        static Interval ratio(Point numer, Point denom, int quantity) {
            ForkInterval f = forkRatio(numer, denom, quantity);
            return f == null ? null : f.ratio();
        }

        /** The same with its design, for a claim that says what it could decide. */
        static ForkInterval forkRatio(Point numer, Point denom, int quantity) {
            double[][] pairs = paired(numer, denom, quantity);
            // a run in forks: the interval over the forks, where the variance between fresh servers lives
            return pairs[0].length < MedianInterval.MIN_ROUNDS ? null : CompareRun.forkLevel(pairs);
        }

        static int pairedRounds(Point numer, Point denom, int quantity) {
            return paired(numer, denom, quantity)[0].length;
        }

        private static double[][] paired(Point numer, Point denom, int quantity) {
            List<double[]> pairs = new ArrayList<>();
            for (Map.Entry<Integer, double[]> e : numer.byRound().entrySet()) {
                double[] other = denom.byRound().get(e.getKey());
                double n = e.getValue()[quantity];
                if (other != null && Double.isFinite(n) && Double.isFinite(other[quantity]) && other[quantity] > 0) {
                    pairs.add(new double[] {n, other[quantity], numer.forkOf().getOrDefault(e.getKey(), 1)});
                }
            }
            double[][] out = new double[3][pairs.size()];
            for (int i = 0; i < pairs.size(); i++) {
                out[0][i] = pairs.get(i)[0];
                out[1][i] = pairs.get(i)[1];
                out[2][i] = pairs.get(i)[2];
            }
            return out;
        }

        private static String key(String protocol, String path, String arch) {
            return protocol + "/" + path + "/" + arch;
        }

        private static double orNaN(Double v) {
            return v == null ? Double.NaN : v;
        }
    }

    /** The run's files: the compares' rounds, the relays' CPU seconds per "PROTOCOL-PATH", the two generators merged, the kernel. */
    record Data(Run run, Map<String, Double> relayCpuS, BenchMerge merge, String kernel) {
    }

    /** The closed loop's window on one relayed path (echo), and the lowest and highest server medians against it. */
    record Window(String path, double window, double lo, double hi) {
    }

    /**
     * What the run found: the relays' share of a core per relayed compare (in %), the windows,
     * the claims, and {resolved, measured} comparisons against the baseline, routed and at the
     * longest round trip, by rate and by CPU per request.
     */
    record Findings(Data data, List<Double> relayShares, List<Window> windows, List<Claim> claims, int[] rate, int[] rateFar, int[] cpu,
            int[] cpuFar) {
    }

    static Data load(Results r) {
        Map<String, Double> cpu = new LinkedHashMap<>();
        for (Map<String, String> row : r.csv("relay.csv").rows()) cpu.merge(row.get("protocol") + "-" + row.get("path"), Double.parseDouble(row.get("relay_cpu_s")), Double::sum);
        return new Data(new Run(r), cpu, r.json("merge.json", BenchMerge.class), r.text("kernel.txt").trim());
    }

    static Findings analyse(Data d) {
        Run run = d.run;
        List<Double> shares = new ArrayList<>();
        for (Map.Entry<String, Double> e : d.relayCpuS.entrySet()) {
            Double loaded = run.relayedSeconds.get(e.getKey());
            if (loaded != null && loaded > 0) shares.add(e.getValue() / loaded * 100);
        }
        String far = run.longest();
        return new Findings(d, shares, windows(run), claims(run), resolved(run, "direct", RATE), resolved(run, far, RATE),
                resolved(run, "direct", CPU), resolved(run, far, CPU));
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static void render(Findings f, Report out) {
        Run run = f.data.run;
        out.put("archs", String.join(", ", run.archs));
        out.put("baseline", run.baseline());
        out.put("rounds", Integer.toString(run.rounds));
        design(run, out);
        long errors = 0;
        for (int i = 0; i < PROTOCOLS.length; i++) {
            String protocol = PROTOCOLS[i];
            errors += tables(run, protocol, out);
            out.put(protocol + "_ratios", ratioTable(run, protocol));
            out.chart("network-" + protocol + "-qps.svg", chart(run, protocol));
        }
        out.put("errors", Long.toString(errors));
        out.put("relay_table", relayTable(run));
        out.put("relay_sampled", !f.relayShares.isEmpty());
        if (!f.relayShares.isEmpty()) {
            double[] v = f.relayShares.stream().mapToDouble(Double::doubleValue).toArray();
            out.put("relay_median", Md.f0(Stats.median(v)));
            out.put("relay_max", Md.f0(Arrays.stream(v).max().orElseThrow()));
        }
        List<String> windows = new ArrayList<>();
        for (Window w : f.windows) {
            windows.add(Md.f0(w.window) + "/s at " + rtt(run, w.path) + " (the servers' medians reached " + Md.f0(w.lo / w.window * 100) + "% to "
                    + Md.f0(w.hi / w.window * 100) + "% of it)");
        }
        out.put("echo_windows", windows.isEmpty() ? "(no relayed path with a delay on this run)" : String.join("; ", windows));
        out.put("claims_checked", !f.claims.isEmpty());
        out.put("min_rounds", Integer.toString(MedianInterval.MIN_ROUNDS));
        if (!f.claims.isEmpty()) {
            Claim.report(f.claims, "ratio", out);
            CompareRun.forkPrecision(out, run.forks, run.rounds);
        }
        conclusions(f, out);
        merge(f.data.merge, out);
        out.put("kernel", f.data.kernel);
    }

    /** The design's figures: the forks, the slices (those longer than the routed path's, by path), the compares that wrote nothing. */
    private static void design(Run run, Report out) {
        List<String> slices = new ArrayList<>();
        double first = run.sliceOf.values().iterator().next();
        for (Map.Entry<String, Double> e : run.sliceOf.entrySet()) {
            if (e.getValue() != first) slices.add(Md.f2(e.getValue()) + " s at " + rtt(run, e.getKey()));
        }
        out.put("forked", run.forks > 1);
        out.put("forks", Integer.toString(run.forks));
        out.put("slice", Md.f2(first));
        out.put("other_slices", String.join(", ", slices));
        out.put("missing", String.join(", ", run.missing));
    }

    /** The protocol's table (median over the rounds, with the rate's interval); returns its errors. */
    private static long tables(Run run, String protocol, Report out) {
        List<List<String>> rows = new ArrayList<>();
        long errors = 0;
        for (String path : run.paths) {
            for (String arch : run.archs) {
                Point p = run.point(protocol, path, arch);
                if (p == null) continue;
                errors += p.errors();
                double[] rates = p.values(RATE);
                String rate = Md.f0(p.median(RATE));
                if (rates.length >= MedianInterval.MIN_ROUNDS) {
                    Interval i = Claim.median(rates);
                    rate += " [" + Md.f0(i.low()) + ", " + Md.f0(i.high()) + "]";
                }
                rows.add(List.of(path, rtt(run, path), arch, rate, orDash(p.median(P50), 0), orDash(p.median(P99), 0), orDash(p.median(CPU), 1)));
            }
        }
        out.put(protocol + "_table", Md.table(List.of("path", "RTT", "server", "req/s, median [95% interval]", "p50 µs", "p99 µs",
                "server CPU µs/req"), rows));
        return errors;
    }

    /** Per path, every other server against the baseline, paired by round: rate and CPU per request. */
    private static String ratioTable(Run run, String protocol) {
        List<String> header = new ArrayList<>(List.of("path", "RTT"));
        for (String arch : run.archs.subList(1, run.archs.size())) {
            header.add(arch + " / " + run.baseline() + ", req/s");
            header.add(arch + " / " + run.baseline() + ", CPU per request");
        }
        List<List<String>> rows = new ArrayList<>();
        for (String path : run.paths) {
            List<String> row = new ArrayList<>(List.of(path, rtt(run, path)));
            Point base = run.point(protocol, path, run.baseline());
            for (String arch : run.archs.subList(1, run.archs.size())) {
                Point p = run.point(protocol, path, arch);
                row.add(cell(p, base, RATE, Comparison.Quantity.RATE, run.threshold));
                row.add(cell(p, base, CPU, Comparison.Quantity.COST, run.threshold));
            }
            rows.add(row);
        }
        return Md.table(header, rows);
    }

    /** Per protocol and server: relay0 over the routed path, rate and the server's CPU per request, paired by round. */
    private static String relayTable(Run run) {
        if (!run.paths.contains("direct") || !run.paths.contains("relay0")) return "(this run has no `relay0` path beside the routed one)";
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < PROTOCOLS.length; i++) {
            for (String arch : run.archs) {
                Point relayed = run.point(PROTOCOLS[i], "relay0", arch), routed = run.point(PROTOCOLS[i], "direct", arch);
                if (relayed == null || routed == null) continue;
                rows.add(List.of(PROTOCOL_LABELS[i], arch, cell(relayed, routed, RATE, Comparison.Quantity.RATE, run.threshold),
                        cell(relayed, routed, CPU, Comparison.Quantity.COST, run.threshold), Integer.toString(Run.pairedRounds(relayed, routed, RATE))));
            }
        }
        return Md.table(List.of("protocol", "server", "req/s relay0 / routed", "server CPU per request relay0 / routed", "paired rounds"), rows);
    }

    /** The closed loop's window at each relayed RTT: one request per connection per round trip (echo). */
    private static List<Window> windows(Run run) {
        List<Window> windows = new ArrayList<>();
        for (String path : run.paths) {
            double rtt = run.rttOf.get(path);
            if (path.equals("direct") || rtt <= 0 || run.point("echo", path, run.baseline()) == null) continue;
            double window = run.connections / (rtt / 1000);
            double lo = Double.MAX_VALUE, hi = 0;
            for (String arch : run.archs) {
                Point p = run.point("echo", path, arch);
                if (p == null) continue;
                lo = Math.min(lo, p.median(RATE));
                hi = Math.max(hi, p.median(RATE));
            }
            windows.add(new Window(path, window, lo, hi));
        }
        return windows;
    }

    /**
     * The lab's claims on this run: at the longest round trip every server is held to lt's rate
     * by the client's window (within {@link #TIE}); the relay at zero delay costs rate against
     * the routed path. Each from its own paired ratios.
     */
    static List<Claim> claims(Run run) {
        List<Claim> claims = new ArrayList<>();
        String far = run.longest();
        for (int i = 0; i < PROTOCOLS.length; i++) {
            Point base = run.point(PROTOCOLS[i], far, run.baseline());
            for (String arch : run.archs.subList(1, run.archs.size())) {
                Point p = run.point(PROTOCOLS[i], far, arch);
                ForkInterval ratio = p == null || base == null ? null : Run.forkRatio(p, base, RATE);
                if (ratio == null) continue;
                claims.add(Claim.within(PROTOCOL_LABELS[i] + " at " + rtt(run, far) + ": " + arch + "'s req/s within " + Md.f0(TIE * 100) + "% of "
                        + run.baseline() + "'s", ratio, Run.pairedRounds(p, base, RATE), 1 - TIE, 1 + TIE));
            }
            if (!run.paths.contains("relay0") || !run.paths.contains("direct")) continue;
            for (String arch : run.archs) {
                Point relayed = run.point(PROTOCOLS[i], "relay0", arch), routed = run.point(PROTOCOLS[i], "direct", arch);
                ForkInterval ratio = relayed == null || routed == null ? null : Run.forkRatio(relayed, routed, RATE);
                if (ratio == null) continue;
                claims.add(Claim.atMost(PROTOCOL_LABELS[i] + ": " + arch + "'s req/s through " + RELAY0 + " below " + ROUTED + "'s",
                        ratio, Run.pairedRounds(relayed, routed, RATE), 1.0));
            }
        }
        return claims;
    }

    /**
     * The conclusions' cases, the template holding their sentences: how many of the comparisons
     * against the baseline resolved a direction routed and at the longest round trip, by rate and
     * by CPU per request, and which of the template's readings those counts make.
     */
    static void conclusions(Findings f, Report out) {
        Run run = f.data.run;
        String far = run.longest();
        out.put("longest_rtt", rtt(run, far));
        out.put("conclusions_measured", f.rate[1] + f.rateFar[1] > 0);
        counts(out, "rate", f.rate);
        counts(out, "rate_far", f.rateFar);
        counts(out, "cpu", f.cpu);
        counts(out, "cpu_far", f.cpuFar);
        out.put("rate_case", rateCase(f.rate, f.rateFar));
        out.put("cpu_case", cpuCase(f.cpuFar, f.rateFar));
        cpuMedians(run, far, out);
    }

    private static void counts(Report out, String key, int[] resolvedOfMeasured) {
        out.put(key + "_resolved", Integer.toString(resolvedOfMeasured[0]));
        out.put(key + "_measured", Integer.toString(resolvedOfMeasured[1]));
    }

    /**
     * Where the client told servers apart by rate, from {resolved, measured} routed and at the
     * longest round trip: "near" (routed only), "neither", "far" (at the longest only) or "both".
     */
    static String rateCase(int[] rate, int[] rateFar) {
        if (rateFar[0] > 0) return rate[0] == 0 ? "far" : "both";
        return rate[0] > 0 ? "near" : "neither";
    }

    /**
     * What CPU per request told at the longest round trip beside the rate: "cpu" (it alone),
     * "both", "neither" or "rate" (the rate alone).
     */
    static String cpuCase(int[] cpuFar, int[] rateFar) {
        if (cpuFar[0] > 0) return rateFar[0] == 0 ? "cpu" : "both";
        return rateFar[0] == 0 ? "neither" : "rate";
    }

    private static void cpuMedians(Run run, String far, Report out) {
        List<String> cpus = new ArrayList<>(), cpusRouted = new ArrayList<>();
        for (String arch : run.archs) {
            Point p = run.point("echo", far, arch), d = run.point("echo", "direct", arch);
            if (p != null) cpus.add(arch + " " + orDash(p.median(CPU), 1));
            if (d != null) cpusRouted.add(arch + " " + orDash(d.median(CPU), 1));
        }
        out.put("echo_cpu_far", String.join(", ", cpus));
        out.put("echo_cpu_direct", String.join(", ", cpusRouted));
    }

    /** {resolved, measured}: the comparisons against the baseline on one path (both protocols) whose interval lies beyond the threshold. */
    private static int[] resolved(Run run, String path, int quantity) {
        int[] n = new int[2];
        for (String protocol : PROTOCOLS) {
            Point base = run.point(protocol, path, run.baseline());
            for (String arch : run.archs.subList(1, run.archs.size())) {
                Point p = run.point(protocol, path, arch);
                Interval ratio = p == null || base == null ? null : Run.ratio(p, base, quantity);
                if (ratio == null) continue;
                n[1]++;
                Comparison.Verdict v = Comparison.verdict(ratio, run.threshold);
                if (v == Comparison.Verdict.ABOVE || v == Comparison.Verdict.BELOW) n[0]++;
            }
        }
        return n;
    }

    private static String chart(Run run, String protocol) {
        SvgChart chart = new SvgChart(protocol + ": req/s by round-trip time", "RTT (ms, relayed paths)", "req/s");
        for (String arch : run.archs) {
            List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
            for (String path : run.paths) {
                Point p = run.point(protocol, path, arch);
                if (path.equals("direct") || p == null) continue; // the relayed paths, by their RTT
                xs.add(run.rttOf.get(path));
                ys.add(p.median(RATE));
            }
            chart.series(arch, xs.stream().mapToDouble(Double::doubleValue).toArray(), ys.stream().mapToDouble(Double::doubleValue).toArray());
        }
        return chart.render();
    }

    private static void merge(BenchMerge merge, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (BenchMerge.Row row : merge.rows()) {
            BenchReport.Latency l = row.latencyUs();
            rows.add(List.of(row.tag(), Long.toString(row.requests()), Md.f0(row.qps()), Md.f0(l.p50()), Md.f0(l.p99()), Md.f0(l.max())));
        }
        out.put("merge_table", Md.table(List.of("tag", "requests", "QPS", "p50 µs", "p99 µs", "max µs"), rows));
        List<String> warnings = new ArrayList<>();
        for (String w : merge.warnings()) warnings.add("- " + w);
        out.put("merge_warnings", warnings.isEmpty() ? "none" : "\n\n" + String.join("\n", warnings));
    }

    /** "0.97 [0.94, 1.01]: the same within ±5.0%: [-6.0%, +1.0%] (threshold ±5.0%)", or why there is none. */
    static String cell(Point numer, Point denom, int quantity, Comparison.Quantity reading, double threshold) {
        if (numer == null || denom == null) return "–";
        Interval ratio = Run.ratio(numer, denom, quantity);
        return CompareRun.words(ratio, reading, threshold);
    }

    private static String rtt(Run run, String path) {
        return path.equals("direct") ? "routed" : Md.f1(run.rttOf.get(path)).replaceAll("\\.0$", "") + " ms";
    }

    private static String orDash(double v, int digits) {
        return Double.isFinite(v) ? (digits == 0 ? Md.f0(v) : Md.f1(v)) : "–";
    }
}
