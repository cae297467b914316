package niolab.reports;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import com.fasterxml.jackson.annotation.JsonProperty;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.BenchReport;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.MedianInterval;

/**
 * exp-ffi: what et's native binding costs (JNA direct mapping or FFM): ns per call from
 * {@code make bench-ffi}, syscalls per request of the servers' event loops and of the serial
 * client from strace, and et's throughput and CPU per request on each binding, with the share
 * of that CPU the binding's calls account for (experiments/scripts/exp-ffi.sh).
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class FfiExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.02, "every request crosses the binding: the least drift allows");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    static final String[] CALLS = {"epollWait", "readEagain", "send64"};
    static final String[] WORKLOADS = {"keepalive-echo", "keepalive-ping", "pipeline-ping"};
    static final String[] STRACE_WORKLOADS = {"keepalive", "short"};
    /** FFM's overhead per call over C may be at most this share of JNA's. */
    static final double FFM_TARGET = 1.0 / 3;
    /** The calls a minimal serial client makes per request, one each. */
    static final List<String> MINIMAL_CLIENT = List.of("socket", "setsockopt", "connect", "write", "read", "close");
    /** Kinds below this many calls per request stay out of the tables. */
    private static final double SHOWN = 0.01;

    @Override
    public String name() {
        return "ffi";
    }

    /**
     * One row of bench-ffi's results.json, per column (C, JNA, FFM, FFM critical, SocketChannel):
     * ns per call in the median round and in the fastest, and bytes allocated per call.
     */
    public record CallCost(String call, Double cNs, Double jnaNs, Double ffmNs, Double ffmCriticalNs, Double socketchannelNs,
                           Double cMinNs, Double jnaMinNs, Double ffmMinNs, Double ffmCriticalMinNs, Double socketchannelMinNs,
                           Double jnaBytesPerOp, Double ffmBytesPerOp, Double ffmCriticalBytesPerOp,
                           Double socketchannelBytesPerOp) {
        /** The lab's FFM binding: an ordinary downcall for epoll_wait, which may sleep; critical elsewhere. */
        Double labFfmMinNs() {
            return call.equals("epollWait") || ffmCriticalMinNs == null ? ffmMinNs : ffmCriticalMinNs;
        }
    }

    /** The part of a JMH result (calls/jmh.json, whose names are camel case) that says how it was measured. */
    public record JmhRun(@JsonProperty("measurementIterations") int measurementIterations,
                         @JsonProperty("measurementTime") String measurementTime) {
    }

    /**
     * What one call costs each binding over C: JNA, and the lab's FFM binding. From the fastest
     * rounds: on a shared CPU a round the scheduler interrupts only gets slower, so the fastest
     * is the least disturbed, and the medians carry the machine's load.
     */
    record Overheads(Map<String, CallCost> calls) {
        double jna(String call) {
            CallCost c = calls.get(call);
            return c.jnaMinNs() - c.cMinNs();
        }

        double ffm(String call) {
            CallCost c = calls.get(call);
            return c.labFfmMinNs() - c.cMinNs();
        }

        double of(String binding, String call) {
            return binding.equals("ffm") ? ffm(call) : jna(call);
        }

        /** Whether both bindings' fastest rounds came out above C's: else the kernel's variance hides the binding. */
        boolean resolved(String call) {
            return jna(call) > 0 && ffm(call) > 0;
        }
    }

    /** One run of et on one binding and workload: echo-bench's report and the server's counters. */
    record TputRun(BenchReport bench, ServerCounters counters) {
    }

    /** One phase's 1-minute load average, at its start (and the run's end). */
    record Load(String phase, double load1) {
    }

    /**
     * The run: the bindings et was built with, bench-ffi's costs per call and how JMH and C
     * timed them, strace's counts per workload of each server (in {@code servers}' order) and
     * of the serial client ({@code coldClient}: echo-bench's cold client, in runs with the
     * paired comparison), et's runs per workload and binding in round order, the compares per
     * workload, and the machine's load per phase on its CPUs.
     */
    record Data(List<String> bindings, Map<String, CallCost> calls, JmhRun jmh, Csv c, List<String> servers,
            Map<String, List<SyscallCounts>> strace, Csv client, boolean coldClient, Map<String, Map<String, List<TputRun>>> tput,
            Map<String, CompareRun> compares, List<Load> load, int cores) {
    }

    static Data load(Results r) {
        List<String> bindings = Arrays.asList(r.text("bindings.txt").trim().split("\\s+"));
        Map<String, CallCost> calls = new TreeMap<>();
        for (CallCost c : r.json("calls/results.json", CallCost[].class)) calls.put(c.call(), c);
        List<String> servers = new ArrayList<>(List.of("lt"));
        for (String b : bindings) servers.add("et-" + b);
        Map<String, List<SyscallCounts>> strace = new LinkedHashMap<>();
        for (String w : STRACE_WORKLOADS) {
            List<SyscallCounts> runs = new ArrayList<>();
            for (String s : servers) runs.add(new SyscallCounts(r, s, w));
            strace.put(w, runs);
        }
        Map<String, Map<String, List<TputRun>>> tput = new LinkedHashMap<>();
        Map<String, CompareRun> compares = new LinkedHashMap<>();
        for (String w : WORKLOADS) {
            Map<String, List<TputRun>> byBinding = new LinkedHashMap<>();
            for (String binding : bindings) {
                List<TputRun> runs = new ArrayList<>();
                for (int round = 1; r.has(file(binding, w, round, ".json")); round++) {
                    runs.add(new TputRun(r.bench(file(binding, w, round, ".json")), r.counters(file(binding, w, round, ".log"))));
                }
                byBinding.put(binding, runs);
            }
            tput.put(w, byBinding);
            if (r.has(compareFile(w))) compares.put(w, CompareRun.of(r, compareFile(w), THRESHOLD));
        }
        List<Load> load = new ArrayList<>();
        for (Map<String, String> row : r.csv("load.csv").rows()) load.add(new Load(row.get("phase"), Csv.number(row.get("load1"))));
        // runs with the paired comparison also strace the cold client, --cold-client, by name
        return new Data(bindings, calls, r.json("calls/jmh.json", JmhRun[].class)[0], r.csv("calls/c.csv"), servers, strace,
                r.csv("client-syscalls.csv"), r.has(compareFile(WORKLOADS[0])), tput, compares, load,
                r.json("env.json", RunEnvironment.class).cores());
    }

    /** One call's overheads over C, FFM's over JNA's, and whether both came out above C's. */
    record CallOverhead(String call, double jna, double ffm, double ratio, boolean resolved) {
    }

    /** The serial client's calls per request by kind, from its two run lengths; their total, and the calls beyond a minimal client's. */
    record ClientCalls(double lo, double hi, Map<String, Double> perRequest, double total, double beyond) {
    }

    /** et on one binding and workload: medians over its rounds, the binding's predicted cost per request and its share of the CPU (%). */
    record TputRow(String workload, String binding, double qps, double cpu, double predicted, double share) {
    }

    /**
     * FFM against JNA on one workload: the claims that it serves as fast or faster and spends no
     * more CPU per request (null when too few rounds pair), and the CPU difference per request,
     * JNA's less FFM's, measured and predicted (ns).
     */
    record Pair(String workload, Claim faster, Claim cheaper, double measuredNs, double predictedNs) {
    }

    /**
     * What the run found: the overheads per call and against the lab's FFM target, the client's
     * calls, et's rows, FFM against JNA per workload (none with one binding), the binding's
     * predicted costs and CPU shares per binding over the workloads, the most rounds of a run,
     * and whether the machine had more runnable tasks than CPUs in any phase.
     */
    record Findings(Data data, Overheads overheads, List<CallOverhead> calls, ClientCalls client, List<TputRow> tput, List<Pair> pairs,
            Map<String, List<Double>> costs, Map<String, List<Double>> shares, int rounds, boolean loadShared) {
    }

    static Findings analyse(Data d) {
        Overheads o = new Overheads(d.calls);
        List<CallOverhead> calls = new ArrayList<>();
        for (String name : CALLS) calls.add(new CallOverhead(name, o.jna(name), o.ffm(name), o.ffm(name) / o.jna(name), o.resolved(name)));
        List<TputRow> rows = new ArrayList<>();
        List<Pair> pairs = new ArrayList<>();
        Map<String, List<Double>> shares = new TreeMap<>(), costs = new TreeMap<>();
        int rounds = 0;
        List<String> bindings = d.bindings;
        for (String w : WORKLOADS) {
            double[] cpu = new double[bindings.size()], predicted = new double[bindings.size()];
            double[][] qpsRounds = new double[bindings.size()][], cpuRounds = new double[bindings.size()][];
            for (int b = 0; b < bindings.size(); b++) {
                String binding = bindings.get(b);
                List<TputRun> runs = d.tput.get(w).get(binding);
                double[] p = new double[runs.size()];
                qpsRounds[b] = new double[runs.size()];
                cpuRounds[b] = new double[runs.size()];
                for (int i = 0; i < runs.size(); i++) {
                    BenchReport bench = runs.get(i).bench;
                    qpsRounds[b][i] = Stats.median(bench.column(Column.QPS));
                    cpuRounds[b][i] = Stats.median(bench.serverCpuPerRun());
                    p[i] = bindingNsPerRequest(runs.get(i).counters, served(bench), o, binding);
                }
                rounds = Math.max(rounds, runs.size());
                cpu[b] = Stats.median(cpuRounds[b]);
                predicted[b] = Stats.median(p);
                double share = predicted[b] / (cpu[b] * 1000) * 100;
                rows.add(new TputRow(w, binding, Stats.median(qpsRounds[b]), cpu[b], predicted[b], share));
                shares.computeIfAbsent(binding, k -> new ArrayList<>()).add(share);
                costs.computeIfAbsent(binding, k -> new ArrayList<>()).add(predicted[b]);
            }
            if (bindings.size() > 1) {
                // the lab's claim: FFM as fast or faster and its CPU per request no higher, on ratios paired by round
                int n = Math.min(qpsRounds[0].length, qpsRounds[1].length);
                Claim faster = Claim.atLeast("qps", Claim.paired(Arrays.copyOf(qpsRounds[1], n), Arrays.copyOf(qpsRounds[0], n)), n, 1.0);
                Claim cheaper = Claim.atMost("cpu", Claim.paired(Arrays.copyOf(cpuRounds[1], n), Arrays.copyOf(cpuRounds[0], n)), n, 1.0);
                CompareRun run = d.compares.get(w);
                if (run != null) {
                    // the comparison proper: both bindings in one compare run, paired by round
                    ForkInterval rate = run.forkRatio("et-ffm", "et-jna", CompareRun.RATE), cost = run.forkRatio("et-ffm", "et-jna", CompareRun.CPU);
                    int k = run.rounds("et-ffm", "et-jna");
                    faster = rate == null ? null : Claim.atLeast("qps", rate, k, 1.0);
                    cheaper = cost == null ? null : Claim.atMost("cpu", cost, k, 1.0);
                }
                pairs.add(new Pair(w, faster, cheaper, (cpu[0] - cpu[1]) * 1000, predicted[0] - predicted[1]));
            }
        }
        boolean shared = false;
        for (Load l : d.load) shared |= l.load1 > d.cores;
        return new Findings(d, o, calls, clientCalls(d.client), rows, pairs, costs, shares, rounds, shared);
    }

    /** The serial client's calls per request: the 1,000-request run minus the 500-request one, over 500. */
    static ClientCalls clientCalls(Csv csv) {
        double[] runs = Arrays.stream(csv.numbers("requests")).distinct().sorted().toArray();
        double lo = runs[0], hi = runs[runs.length - 1];
        TreeMap<String, Double> perRequest = new TreeMap<>();
        for (Map<String, String> row : csv.rows()) {
            double sign = Csv.number(row.get("requests")) == hi ? 1 : -1;
            perRequest.merge(row.get("syscall"), sign * Csv.number(row.get("calls")) / (hi - lo), Double::sum);
        }
        double total = 0, beyond = 0;
        for (String k : Stats.keysAtLeast(perRequest, SHOWN)) total += perRequest.get(k);
        for (Map.Entry<String, Double> e : perRequest.entrySet()) {
            beyond += Math.max(0, e.getValue() - (MINIMAL_CLIENT.contains(e.getKey()) ? 1 : 0));
        }
        return new ClientCalls(lo, hi, perRequest, total, beyond);
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static void render(Findings f, Report out) {
        Data d = f.data;
        out.put("ffm", d.bindings.contains("ffm"));
        out.put("paired", d.bindings.size() > 1);
        renderCalls(f, out);
        out.put("rounds_shape", "JMH: " + d.jmh.measurementIterations() + " iterations of " + d.jmh.measurementTime() + "; C: "
                + d.c.numbers("round", "call", "epollWait").length + " rounds of " + Md.f0(d.c.numbers("calls", "call", "epollWait")[0])
                + " calls");
        for (String w : STRACE_WORKLOADS) out.put("syscalls_" + w, syscalls(d.servers, d.strace.get(w), w, out));
        out.put("client_syscalls", renderClient(f.client, out));
        out.put("cold_client", d.coldClient);
        renderThroughput(f, out);
        List<String> phases = new ArrayList<>();
        for (Load l : d.load) phases.add(l.phase + " " + Md.f1(l.load1));
        out.put("load_phases", String.join(", ", phases));
        out.put("cores", Integer.toString(d.cores));
        out.put("load_shared", f.loadShared);
    }

    private static void renderCalls(Findings f, Report out) {
        List<List<String>> rows = new ArrayList<>();
        List<String> met = new ArrayList<>(), missed = new ArrayList<>(), unresolved = new ArrayList<>();
        for (CallOverhead o : f.calls) {
            CallCost c = f.data.calls.get(o.call);
            if (!o.resolved) unresolved.add("`" + o.call + "`");
            else (o.ratio <= FFM_TARGET ? met : missed).add("`" + o.call + "` (" + Md.f2(o.ratio) + ")");
            rows.add(List.of("`" + o.call + "`", ns(c.cMinNs(), c.cNs()), ns(c.jnaMinNs(), c.jnaNs()), ns(c.ffmMinNs(), c.ffmNs()),
                    ns(c.ffmCriticalMinNs(), c.ffmCriticalNs()), ns(c.socketchannelMinNs(), c.socketchannelNs()),
                    Md.f1(o.jna), Md.f1(o.ffm), o.resolved ? Md.f2(o.ratio) : "not resolved"));
            out.put("jna_over_" + o.call, Md.f1(o.jna) + " ns");
            out.put("ffm_over_" + o.call, Md.f1(o.ffm) + " ns");
        }
        out.put("calls_table", Md.table(List.of("call", "C", "JNA", "FFM", "FFM critical", "SocketChannel",
                "JNA − C", "lab's FFM − C", "(FFM − C) / (JNA − C)"), rows));
        out.put("ffm_target_share", Md.f2(FFM_TARGET));
        out.put("ffm_met", String.join(", ", met));
        out.put("ffm_missed", String.join(", ", missed));
        out.put("ffm_told", !met.isEmpty() || !missed.isEmpty());
        out.put("ffm_unresolved", String.join(", ", unresolved));
    }

    /** Calls per request on each server's event loop thread, by kind, and their total. */
    private static String syscalls(List<String> servers, List<SyscallCounts> runs, String w, Report out) {
        TreeMap<String, Double> kinds = new TreeMap<>();
        for (SyscallCounts run : runs) {
            for (String k : run.thread("loop").keySet()) kinds.merge(k, run.perRequest("loop", k, 0), Math::max);
        }
        List<String> order = Stats.keysAtLeast(kinds, SHOWN);
        List<List<String>> rows = new ArrayList<>();
        for (String k : order) {
            List<String> row = new ArrayList<>(List.of("`" + k + "`"));
            for (SyscallCounts run : runs) row.add(Md.f2(run.perRequest("loop", k, 0)));
            rows.add(row);
        }
        List<String> total = new ArrayList<>(List.of("**all**"));
        for (int i = 0; i < runs.size(); i++) {
            total.add("**" + Md.f2(runs.get(i).total("loop", 0)) + "**");
            out.put("loop_calls_" + servers.get(i).replace('-', '_') + "_" + w, Md.f1(runs.get(i).total("loop", 0)));
        }
        rows.add(total);
        List<String> header = new ArrayList<>(List.of("syscall"));
        header.addAll(servers);
        return Md.table(header, rows);
    }

    /** The client's table, its total, its calls beyond a minimal client's and its two run lengths. */
    static String renderClient(ClientCalls c, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (String k : Stats.keysAtLeast(c.perRequest, SHOWN)) rows.add(List.of("`" + k + "`", Md.f2(c.perRequest.get(k))));
        rows.add(List.of("**all**", "**" + Md.f2(c.total) + "**"));
        out.put("client_total", Md.f1(c.total));
        out.put("client_beyond", Md.f1(c.beyond));
        out.put("client_runs", Md.f0(c.lo) + " and " + Md.f0(c.hi));
        return Md.table(List.of("syscall", "calls per request"), rows);
    }

    /** et per binding and workload, and FFM against JNA per workload ({@code pair_WORKLOAD}: "few" or "claim"). */
    private static void renderThroughput(Findings f, Report out) {
        Data d = f.data;
        List<List<String>> rows = new ArrayList<>();
        for (TputRow x : f.tput) {
            rows.add(List.of(x.workload, x.binding.toUpperCase(), Md.f0(x.qps), Md.f2(x.cpu), Md.f0(x.predicted), Md.f1(x.share) + "%"));
        }
        List<String> checks = new ArrayList<>();
        out.put("min_rounds", Integer.toString(MedianInterval.MIN_ROUNDS));
        for (String w : WORKLOADS) out.put("pair_" + w, "none");
        for (Pair p : f.pairs) {
            String key = "pair_" + p.workload;
            checks.add(p.workload + ": measured " + Md.f0(p.measuredNs) + " ns, predicted " + Md.f0(p.predictedNs) + " ns");
            boolean few = p.faster == null || p.cheaper == null;
            out.put(key, few ? "few" : "claim");
            out.put(key + "_qps", few ? "" : Md.f2(p.faster.measured().estimate()) + "× the QPS " + p.faster.interval());
            out.put(key + "_cpu", few ? "" : Md.f2(p.cheaper.measured().estimate()) + "× the server CPU per request " + p.cheaper.interval());
            out.put(key + "_verdict", few ? "" : Verdicts.all(List.of(p.faster, p.cheaper)).words());
        }
        out.put("tput_rounds", Integer.toString(f.rounds));
        StringBuilder sb = new StringBuilder();
        if (d.coldClient) {
            for (Map.Entry<String, CompareRun> c : d.compares.entrySet()) sb.append(sb.length() == 0 ? "" : "\n\n").append(c.getValue().section(c.getKey()));
        }
        out.put("compare_tables", sb.toString());
        BenchReport.Config shape = d.tput.get("pipeline-ping").get(d.bindings.get(0)).get(0).bench.config();
        out.put("tput_shape", "-c " + shape.connections() + " --duration " + Md.f0(shape.durationS()) + "s --warmup "
                + shape.warmup() + "` (pipelined: `--pipeline " + shape.pipeline());
        List<String> shareText = new ArrayList<>(), costText = new ArrayList<>();
        for (String binding : d.bindings) {
            shareText.add(binding.toUpperCase() + " " + range(f.shares.get(binding), "%"));
            costText.add(binding.toUpperCase() + " " + range(f.costs.get(binding), " ns"));
        }
        out.put("share_range", String.join(", ", shareText));
        out.put("cost_range", String.join(", ", costText));
        out.put("tput_table", Md.table(List.of("workload", "binding", "QPS (median)", "server CPU µs/request",
                "binding's cost, predicted (ns/request)", "share of the CPU"), rows));
        out.put("ffm_check", String.join("; ", checks));
    }

    /** {@code 3.1–9.8%}: the smallest and largest of the workloads' medians. */
    private static String range(List<Double> v, String unit) {
        double[] a = unbox(v);
        String f = unit.equals("%") ? Md.f1(a[Stats.best(a, false)]) + "–" + Md.f1(a[Stats.best(a, true)])
                : Md.f0(a[Stats.best(a, false)]) + "–" + Md.f0(a[Stats.best(a, true)]);
        return f + unit;
    }

    private static String compareFile(String workload) {
        return "compare-" + workload + ".json";
    }

    private static String file(String binding, String workload, int round, String ext) {
        return "tput-" + binding + "-" + workload + "-" + round + ext;
    }

    /** Requests the server saw: the warm-up's and the measured run's. */
    private static double served(BenchReport b) {
        double n = 0;
        if (b.warmup() != null) n += b.warmup().requests();
        for (BenchReport.Run run : b.runs()) n += run.requests();
        return n;
    }

    /**
     * The binding's cost per request over C's bare calls: the server's calls per request (its
     * counters) times the binding's overhead per call. A wait costs epoll_wait's overhead; every
     * other call (read, write, accept, close) read's: the same path through the binding, timed
     * where the kernel's part is cheapest and steadiest (a send's varies by more than the
     * binding adds).
     */
    static double bindingNsPerRequest(ServerCounters c, double requests, Overheads o, String binding) {
        double calls = c.get("reads") + c.get("reads_eagain") + c.get("writes") + c.get("writes_eagain")
                + c.get("accepts") + c.get("closes");
        return (c.get("epoll_waits") * o.of(binding, "epollWait") + calls * o.of(binding, "readEagain")) / requests;
    }

    private static double[] unbox(List<Double> v) {
        double[] a = new double[v.size()];
        for (int i = 0; i < a.length; i++) a[i] = v.get(i);
        return a;
    }

    /** {@code 127.2 (150.3)}: the fastest round, the median round in brackets. */
    private static String ns(Double fastest, Double median) {
        return fastest == null ? "-" : Md.f1(fastest) + " (" + Md.f1(median) + ")";
    }
}
