package niolab.reports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import niolab.common.results.BenchMerge;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.common.stats.Interval;

/**
 * exp-network: client and server in network namespaces of their own, joined through a middle
 * namespace that routes (the direct path) or relays with a fixed delay each way
 * (experiments/scripts/exp-network.sh): QPS, p50/p99 and server CPU per request by round-trip
 * time, the gap between the architectures per RTT, and two generators merged.
 */
public final class NetworkExperiment implements Experiment {
    private static final String[] PROTOCOLS = {"echo", "http"};

    @Override
    public String name() {
        return "network";
    }

    /** Medians over the rounds of one architecture on one path. */
    private record Point(double qps, double p50, double p99, double cpu, long errors, double spread, double cpuSpread, double[] qpsByRound,
                         int connections) {
    }

    @Override
    public void generate(Results r, Report out) {
        Csv runs = r.csv("runs.csv");
        Set<String> archs = new LinkedHashSet<>();
        Map<String, String> rttOf = new LinkedHashMap<>();
        int rounds = 0;
        for (Map<String, String> row : runs.rows()) {
            archs.add(row.get("arch"));
            rttOf.put(row.get("path"), row.get("rtt_ms"));
            rounds = Math.max(rounds, Integer.parseInt(row.get("round")));
        }
        List<String> paths = new ArrayList<>(rttOf.keySet());
        out.put("rounds", Integer.toString(rounds));
        out.put("archs", String.join(", ", archs));

        long errors = 0;
        Map<String, Double> gapOf = new LinkedHashMap<>();
        for (String protocol : PROTOCOLS) {
            Map<String, Map<String, Point>> byPath = new LinkedHashMap<>();
            for (String path : paths) {
                Map<String, Point> byArch = new LinkedHashMap<>();
                for (String arch : archs) byArch.put(arch, point(r, runs, arch, protocol, path));
                byPath.put(path, byArch);
            }
            List<List<String>> rows = new ArrayList<>();
            List<List<String>> gaps = new ArrayList<>();
            List<Double> spreads = new ArrayList<>(), cpuSpreads = new ArrayList<>();
            SvgChart qpsChart = new SvgChart(protocol + ": QPS by round-trip time", "RTT (ms, relayed paths)", "QPS");
            for (String path : paths) {
                Map<String, Point> byArch = byPath.get(path);
                double best = 0, worst = Double.MAX_VALUE;
                String bestArch = "", worstArch = "";
                for (Map.Entry<String, Point> e : byArch.entrySet()) {
                    Point p = e.getValue();
                    errors += p.errors;
                    spreads.add(p.spread);
                    cpuSpreads.add(p.cpuSpread);
                    rows.add(List.of(path, rttLabel(path, rttOf), e.getKey(), Md.f0(p.qps), Md.f0(p.p50), Md.f0(p.p99), Md.f1(p.cpu)));
                    if (p.qps > best) { best = p.qps; bestArch = e.getKey(); }
                    if (p.qps < worst) { worst = p.qps; worstArch = e.getKey(); }
                }
                List<String> cpus = new ArrayList<>();
                for (Map.Entry<String, Point> e : byArch.entrySet()) cpus.add(e.getKey() + " " + Md.f1(e.getValue().cpu));
                out.put(protocol + "_cpu_" + key(path), String.join(", ", cpus));
                double gap = (best / worst - 1) * 100;
                gaps.add(List.of(path, rttLabel(path, rttOf), bestArch, worstArch, Md.f0(gap) + "%"));
                out.put(protocol + "_gap_" + key(path), Md.f0(gap) + "%");
                gapOf.put(protocol + "-" + path, gap);
                double cpuGap = cpuGap(byArch);
                out.put(protocol + "_cpu_gap_" + key(path), Md.f0(cpuGap) + "%");
                gapOf.put(protocol + "-cpu-" + path, cpuGap);
                // the closed loop's window: each connection holds one request per round trip
                if (!path.equals("direct") && Double.parseDouble(rttOf.get(path)) > 0) {
                    double window = byArch.values().iterator().next().connections() / (Double.parseDouble(rttOf.get(path)) / 1000);
                    out.put(protocol + "_window_" + key(path), Md.f0(window) + "/s at " + rttOf.get(path) + " ms (the servers reached "
                            + Md.f0(worst / window * 100) + "% to " + Md.f0(best / window * 100) + "% of it)");
                }
                out.put(protocol + "_best_" + key(path), bestArch);
            }
            for (String arch : archs) {
                List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
                for (String path : paths) {
                    if (!path.startsWith("relay") && !path.startsWith("rtt")) continue; // the relayed paths, by their RTT
                    xs.add(Double.parseDouble(rttOf.get(path)));
                    ys.add(byPath.get(path).get(arch).qps);
                }
                qpsChart.series(arch, toArray(xs), toArray(ys));
            }
            // How far apart the rounds of one point were: differences below this are noise.
            out.put(protocol + "_noise", Md.f0(Stats.median(toArray(spreads))) + "%");
            out.put(protocol + "_cpu_noise", Md.f0(Stats.median(toArray(cpuSpreads))) + "%");
            gapOf.put(protocol + "-noise", Stats.median(toArray(spreads)));
            gapOf.put(protocol + "-cpu-noise", Stats.median(toArray(cpuSpreads)));
            out.put(protocol + "_table", Md.table(List.of("path", "RTT", "server", "QPS", "p50 µs", "p99 µs", "server CPU µs/req"), rows));
            out.put(protocol + "_gaps", Md.table(List.of("path", "RTT", "most QPS", "least QPS", "gap"), gaps));
            out.chart("network-" + protocol + "-qps.svg", qpsChart.render());
            // What the relay costs at zero delay, against the kernel's routing: the ruler's own error.
            if (byPath.containsKey("direct") && byPath.containsKey("relay0")) {
                // every server's rounds, each relayed round over the routed round of the same number
                List<Double> relayed = new ArrayList<>(), routed = new ArrayList<>();
                for (String arch : archs) {
                    for (double q : byPath.get("relay0").get(arch).qpsByRound()) relayed.add(q);
                    for (double q : byPath.get("direct").get(arch).qpsByRound()) routed.add(q);
                }
                Interval ratio = Claim.ratio(toArray(relayed), toArray(routed));
                out.put(protocol + "_relay0_ratio", Md.f2(ratio.estimate()) + "x [" + Md.f2(ratio.low()) + ", " + Md.f2(ratio.high()) + "]");
                out.put(protocol + "_relay0_verdict", ratio.low() <= 1 && ratio.high() >= 1
                        ? "an interval that includes 1: this run cannot tell the relay's cost from nothing"
                        : ratio.high() < 1 ? "below 1 over the whole interval: the relay costs QPS, and the relayed paths' figures are low by about that much"
                        : "above 1 over the whole interval, which a relay cannot earn: the routed and relayed rounds ran under different"
                                + " conditions of the machine, by more than the relay costs");
            }
        }
        out.put("errors", Long.toString(errors));
        conclusions(gapOf, paths, out);

        Csv relay = r.csv("relay.csv");
        double[] cpu = relay.numbers("relay_cpu_s"), elapsed = relay.numbers("elapsed_s");
        double[] share = new double[cpu.length];
        for (int i = 0; i < share.length; i++) share[i] = cpu[i] / elapsed[i] * 100;
        out.put("relay_cpu_median", Md.f0(Stats.median(share)) + "%");
        out.put("relay_cpu_max", Md.f0(share[Stats.best(share, true)]) + "%");

        BenchMerge merge = r.json("merge.json", BenchMerge.class);
        List<List<String>> mrows = new ArrayList<>();
        for (BenchMerge.Row row : merge.rows()) {
            BenchReport.Latency l = row.latencyUs();
            mrows.add(List.of(row.tag(), Long.toString(row.requests()), Md.f0(row.qps()), Md.f0(l.p50()), Md.f0(l.p99()), Md.f0(l.max())));
        }
        out.put("merge_table", Md.table(List.of("tag", "requests", "QPS", "p50 µs", "p99 µs", "max µs"), mrows));
        List<String> warnings = new ArrayList<>();
        for (String w : merge.warnings()) warnings.add("- " + w);
        out.put("merge_warnings", warnings.isEmpty() ? "none" : "\n\n" + String.join("\n", warnings));
        out.put("kernel", r.text("kernel.txt").trim());
    }

    private static Point point(Results r, Csv runs, String arch, String protocol, String path) {
        List<Double> qps = new ArrayList<>(), p50 = new ArrayList<>(), p99 = new ArrayList<>(), cpu = new ArrayList<>();
        long errors = 0;
        int connections = 0;
        for (Map<String, String> row : runs.rows()) {
            if (!row.get("arch").equals(arch) || !row.get("protocol").equals(protocol) || !row.get("path").equals(path)) continue;
            BenchReport b = r.bench(row.get("file"));
            qps.add(Stats.median(b.column(Column.QPS)));
            p50.add(Stats.median(b.column(Column.P50)));
            p99.add(Stats.median(b.column(Column.P99)));
            cpu.add(Stats.median(b.serverCpuPerRun()));
            errors += b.errors().total();
            connections = b.config().connections();
        }
        return new Point(Stats.median(toArray(qps)), Stats.median(toArray(p50)), Stats.median(toArray(p99)),
                Stats.median(toArray(cpu)), errors, Stats.relativeSpread(toArray(qps)) * 100, Stats.relativeSpread(toArray(cpu)) * 100,
                toArray(qps), connections);
    }

    /** (max − min) / min of the servers' CPU per request at one path, in percent. */
    private static double cpuGap(Map<String, Point> byArch) {
        double lo = Double.MAX_VALUE, hi = 0;
        for (Point p : byArch.values()) {
            lo = Math.min(lo, p.cpu());
            hi = Math.max(hi, p.cpu());
        }
        return (hi / lo - 1) * 100;
    }

    /**
     * The conclusions, each a choice between phrasings made by the data: whether the echo gap
     * between the servers stood above the rounds' spread routed and at the longest RTT, and
     * whether their CPU per request did.
     */
    private static void conclusions(Map<String, Double> gapOf, List<String> paths, Report out) {
        String longest = paths.get(paths.size() - 1);
        double noise = gapOf.get("echo-noise"), cpuNoise = gapOf.get("echo-cpu-noise");
        double routed = gapOf.get("echo-direct"), far = gapOf.get("echo-" + longest);
        double cpuRouted = gapOf.get("echo-cpu-direct"), cpuFar = gapOf.get("echo-cpu-" + longest);
        out.put("longest_path", longest);
        out.put("gap_closes", (far < routed ? "narrowed" : "did not narrow") + " from " + Md.f0(routed) + "% routed to " + Md.f0(far)
                + "% at the longest round trip");
        out.put("conclusion_qps", "The echo gap in QPS between the servers was " + Md.f0(routed) + "% routed ("
                + (routed > noise ? "above" : "within") + " the " + Md.f0(noise) + "% by which one point's rounds differ) and "
                + Md.f0(far) + "% on the longest round trip (" + (far > noise ? "above" : "within") + " it): "
                + (routed > noise && far <= noise ? "the client saw the architectures apart only while the round trip was short."
                        : routed <= noise ? "this run's rounds cannot tell the architectures apart by QPS even on the routed path."
                        : "the difference stayed visible to the client at every round trip measured."));
        out.put("conclusion_cpu", "Their CPU per request differed by " + Md.f0(cpuRouted) + "% routed and " + Md.f0(cpuFar)
                + "% on the longest round trip, against " + Md.f0(cpuNoise) + "% between one point's rounds: "
                + (cpuFar > cpuNoise ? "CPU per request told them apart at the longest round trip."
                        : "this run's rounds cannot tell them apart by CPU per request there either."));
    }

    private static String rttLabel(String path, Map<String, String> rttOf) {
        return path.equals("direct") ? "routed" : rttOf.get(path) + " ms";
    }

    private static String key(String path) {
        return path.replace('.', '_');
    }

    private static double[] toArray(List<Double> v) {
        double[] a = new double[v.size()];
        for (int i = 0; i < a.length; i++) a[i] = v.get(i);
        return a;
    }
}
