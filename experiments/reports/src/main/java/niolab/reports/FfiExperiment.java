package niolab.reports;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import com.fasterxml.jackson.annotation.JsonProperty;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.BenchReport;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;

/**
 * exp-ffi: what et's native binding costs (JNA direct mapping or FFM): ns per call from
 * {@code make bench-ffi}, syscalls per request of the servers' event loops and of the serial
 * client from strace, and et's throughput and CPU per request on each binding, with the share
 * of that CPU the binding's calls account for (experiments/scripts/exp-ffi.sh).
 */
public final class FfiExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.02, "a native call sits on every request's path, so a small difference matters: 2%, the least a shared machine's drift leaves readable");

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

    @Override
    public void generate(Results r, Report out) {
        List<String> bindings = Arrays.asList(r.text("bindings.txt").trim().split("\\s+"));
        boolean ffm = bindings.contains("ffm");
        out.put("bindings", ffm ? "JNA and FFM" : "JNA only: this build's `et` has no `--binding ffm`, so every FFM row "
                + "below is missing and only the per-call costs compare FFM with JNA");
        Map<String, CallCost> calls = new TreeMap<>();
        for (CallCost c : r.json("calls/results.json", CallCost[].class)) calls.put(c.call(), c);
        Overheads overheads = new Overheads(calls);
        perCall(calls, overheads, out);
        JmhRun jmh = r.json("calls/jmh.json", JmhRun[].class)[0];
        Csv c = r.csv("calls/c.csv");
        out.put("rounds_shape", "JMH: " + jmh.measurementIterations() + " iterations of " + jmh.measurementTime() + "; C: "
                + c.numbers("round", "call", "epollWait").length + " rounds of " + Md.f0(c.numbers("calls", "call", "epollWait")[0])
                + " calls");
        List<String> servers = new ArrayList<>(List.of("lt"));
        for (String b : bindings) servers.add("et-" + b);
        for (String w : STRACE_WORKLOADS) out.put("syscalls_" + w, syscalls(r, servers, w, out));
        out.put("client_syscalls", client(r.csv("client-syscalls.csv"), out));
        // runs with the paired comparison also strace the cold client, --cold-client, by name
        out.put("client_kind", r.has(compareFile(WORKLOADS[0]))
                ? "echo-bench's cold serial client (`--cold-client`: a blocking `SocketChannel`)"
                : "echo-bench's serial client, as it was at the run's commit");
        throughput(r, bindings, overheads, out);
        load(r, out);
    }

    /** The machine's load averages at each phase, against its CPUs. */
    private static void load(Results r, Report out) {
        int cores = r.json("env.json", RunEnvironment.class).cores();
        List<String> phases = new ArrayList<>();
        double busiest = 0;
        for (Map<String, String> row : r.csv("load.csv").rows()) {
            double load1 = Csv.number(row.get("load1"));
            busiest = Math.max(busiest, load1);
            phases.add(row.get("phase") + " " + Md.f1(load1));
        }
        out.put("load", "1-minute load average " + String.join(", ", phases) + " (at the start of each phase and at the end) on "
                + cores + " CPUs: " + (busiest > cores
                ? "more runnable tasks than CPUs, a shared machine on which every run waited for its CPU at times"
                : "no more runnable tasks than CPUs"));
    }

    private static void perCall(Map<String, CallCost> calls, Overheads o, Report out) {
        List<List<String>> rows = new ArrayList<>();
        List<String> met = new ArrayList<>(), missed = new ArrayList<>(), unresolved = new ArrayList<>();
        for (String name : CALLS) {
            CallCost c = calls.get(name);
            double ratio = o.ffm(name) / o.jna(name);
            boolean resolved = o.resolved(name);
            if (!resolved) unresolved.add("`" + name + "`");
            else (ratio <= FFM_TARGET ? met : missed).add("`" + name + "` (" + Md.f2(ratio) + ")");
            rows.add(List.of("`" + name + "`", ns(c.cMinNs(), c.cNs()), ns(c.jnaMinNs(), c.jnaNs()), ns(c.ffmMinNs(), c.ffmNs()),
                    ns(c.ffmCriticalMinNs(), c.ffmCriticalNs()), ns(c.socketchannelMinNs(), c.socketchannelNs()),
                    Md.f1(o.jna(name)), Md.f1(o.ffm(name)), resolved ? Md.f2(ratio) : "not resolved"));
            out.put("jna_over_" + name, Md.f1(o.jna(name)) + " ns");
            out.put("ffm_over_" + name, Md.f1(o.ffm(name)) + " ns");
        }
        out.put("calls_table", Md.table(List.of("call", "C", "JNA", "FFM", "FFM critical", "SocketChannel",
                "JNA − C", "lab's FFM − C", "(FFM − C) / (JNA − C)"), rows));
        List<String> verdict = new ArrayList<>();
        if (!met.isEmpty()) verdict.add("meets the lab's claim (at most " + Md.f2(FFM_TARGET) + " of JNA's) on " + String.join(", ", met));
        if (!missed.isEmpty()) verdict.add("misses it on " + String.join(", ", missed));
        if (!unresolved.isEmpty()) {
            verdict.add("cannot be told on " + String.join(", ", unresolved) + ", where a binding's fastest round beat C's:"
                    + " the kernel's share of the call varied by more than the binding adds");
        }
        out.put("ffm_target", String.join("; ", verdict));
    }

    /** Calls per request on each server's event loop thread, by kind, and their total. */
    private static String syscalls(Results r, List<String> servers, String w, Report out) {
        List<SyscallCounts> runs = new ArrayList<>();
        TreeMap<String, Double> kinds = new TreeMap<>();
        for (String s : servers) {
            SyscallCounts run = new SyscallCounts(r, s, w);
            runs.add(run);
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
        for (String s : servers) header.add(s);
        return Md.table(header, rows);
    }

    /** The serial client's calls per request: the 1,000-request run minus the 500-request one, over 500. */
    static String client(Csv csv, Report out) {
        double[] runs = Arrays.stream(csv.numbers("requests")).distinct().sorted().toArray();
        double lo = runs[0], hi = runs[runs.length - 1];
        TreeMap<String, Double> perRequest = new TreeMap<>();
        for (Map<String, String> row : csv.rows()) {
            double sign = Csv.number(row.get("requests")) == hi ? 1 : -1;
            perRequest.merge(row.get("syscall"), sign * Csv.number(row.get("calls")) / (hi - lo), Double::sum);
        }
        List<String> order = Stats.keysAtLeast(perRequest, SHOWN);
        List<List<String>> rows = new ArrayList<>();
        double total = 0;
        for (String k : order) {
            rows.add(List.of("`" + k + "`", Md.f2(perRequest.get(k))));
            total += perRequest.get(k);
        }
        rows.add(List.of("**all**", "**" + Md.f2(total) + "**"));
        double beyond = 0;
        for (Map.Entry<String, Double> e : perRequest.entrySet()) {
            beyond += Math.max(0, e.getValue() - (MINIMAL_CLIENT.contains(e.getKey()) ? 1 : 0));
        }
        out.put("client_total", Md.f1(total));
        out.put("client_beyond", Md.f1(beyond));
        out.put("client_runs", Md.f0(lo) + " and " + Md.f0(hi));
        return Md.table(List.of("syscall", "calls per request"), rows);
    }

    /** et per binding and workload: medians over the rounds, and the binding's predicted share of the CPU. */
    private static void throughput(Results r, List<String> bindings, Overheads o, Report out) {
        List<List<String>> rows = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        List<String> checks = new ArrayList<>();
        Map<String, List<Double>> shares = new TreeMap<>(), costs = new TreeMap<>();
        int rounds = 0;
        for (String w : WORKLOADS) {
            double[] qps = new double[bindings.size()], cpu = new double[bindings.size()], predicted = new double[bindings.size()];
            double[][] qpsRounds = new double[bindings.size()][], cpuRounds = new double[bindings.size()][];
            for (int b = 0; b < bindings.size(); b++) {
                String binding = bindings.get(b);
                List<Double> q = new ArrayList<>(), c = new ArrayList<>(), p = new ArrayList<>();
                for (int round = 1; r.has(file(binding, w, round, ".json")); round++) {
                    BenchReport bench = r.bench(file(binding, w, round, ".json"));
                    q.add(Stats.median(bench.column(Column.QPS)));
                    c.add(Stats.median(bench.serverCpuPerRun()));
                    p.add(bindingNsPerRequest(r.counters(file(binding, w, round, ".log")), served(bench), o, binding));
                    rounds = Math.max(rounds, round);
                }
                qpsRounds[b] = unbox(q);
                cpuRounds[b] = unbox(c);
                qps[b] = Stats.median(qpsRounds[b]);
                cpu[b] = Stats.median(cpuRounds[b]);
                predicted[b] = Stats.median(unbox(p));
                double share = predicted[b] / (cpu[b] * 1000) * 100;
                rows.add(List.of(w, binding.toUpperCase(), Md.f0(qps[b]), Md.f2(cpu[b]), Md.f0(predicted[b]), Md.f1(share) + "%"));
                shares.computeIfAbsent(binding, k -> new ArrayList<>()).add(share);
                costs.computeIfAbsent(binding, k -> new ArrayList<>()).add(predicted[b]);
            }
            if (bindings.size() > 1) {
                // the lab's claim: FFM as fast or faster and its CPU per request no higher, on ratios paired by round
                int n = Math.min(qpsRounds[0].length, qpsRounds[1].length);
                Claim faster = Claim.atLeast("qps", Claim.paired(Arrays.copyOf(qpsRounds[1], n), Arrays.copyOf(qpsRounds[0], n)), n, 1.0);
                Claim cheaper = Claim.atMost("cpu", Claim.paired(Arrays.copyOf(cpuRounds[1], n), Arrays.copyOf(cpuRounds[0], n)), n, 1.0);
                if (r.has(compareFile(w))) {
                    // the comparison proper: both bindings in one compare run, paired by round
                    CompareRun run = CompareRun.of(r, compareFile(w), THRESHOLD);
                    ForkInterval rate = run.forkRatio("et-ffm", "et-jna", CompareRun.RATE), cost = run.forkRatio("et-ffm", "et-jna", CompareRun.CPU);
                    int k = run.rounds("et-ffm", "et-jna");
                    faster = rate == null ? null : Claim.atLeast("qps", rate, k, 1.0);
                    cheaper = cost == null ? null : Claim.atMost("cpu", cost, k, 1.0);
                }
                checks.add(w + ": measured " + Md.f0((cpu[0] - cpu[1]) * 1000) + " ns, predicted "
                        + Md.f0(predicted[0] - predicted[1]) + " ns");
                if (faster == null || cheaper == null) {
                    verdicts.add(w + ": FFM against JNA: too few paired rounds for an interval (" + MedianInterval.MIN_ROUNDS + " needed)");
                    continue;
                }
                String verdict = Verdicts.all(List.of(faster, cheaper)).words();
                verdicts.add(w + ": FFM over JNA " + Md.f2(faster.measured().estimate()) + "× the QPS " + faster.interval() + ", "
                        + Md.f2(cheaper.measured().estimate()) + "× the server CPU per request " + cheaper.interval()
                        + " (the lab's claim, as fast or faster with CPU no higher: " + verdict + ")");
            }
        }
        out.put("tput_rounds", Integer.toString(rounds));
        out.put("compare_tables", compareTables(r));
        BenchReport.Config shape = r.bench(file(bindings.get(0), "pipeline-ping", 1, ".json")).config();
        out.put("tput_shape", "-c " + shape.connections() + " --duration " + Md.f0(shape.durationS()) + "s --warmup "
                + shape.warmup() + "` (pipelined: `--pipeline " + shape.pipeline());
        List<String> shareText = new ArrayList<>(), costText = new ArrayList<>();
        for (String binding : bindings) {
            shareText.add(binding.toUpperCase() + " " + range(shares.get(binding), "%"));
            costText.add(binding.toUpperCase() + " " + range(costs.get(binding), " ns"));
        }
        out.put("share_range", String.join(", ", shareText));
        out.put("cost_range", String.join(", ", costText));
        out.put("tput_table", Md.table(List.of("workload", "binding", "QPS (median)", "server CPU µs/request",
                "binding's cost, predicted (ns/request)", "share of the CPU"), rows));
        out.put("ffm_vs_jna", verdicts.isEmpty() ? "not measured (no FFM binding in this build)" : String.join("; ", verdicts));
        out.put("ffm_check", checks.isEmpty() ? "not measured (no FFM binding in this build)" : String.join("; ", checks));
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

    /** Part 3's tables, one compare per workload, or a line saying the results predate it. */
    private static String compareTables(Results r) {
        if (!r.has(compareFile(WORKLOADS[0]))) {
            return "These results predate the paired comparison (`echo-bench compare`): FFM against JNA below comes from the"
                    + " sequential rounds of 3.3, paired by round index.";
        }
        StringBuilder sb = new StringBuilder();
        for (String w : WORKLOADS) {
            if (!r.has(compareFile(w))) continue;
            sb.append(sb.length() == 0 ? "" : "\n\n").append(CompareRun.of(r, compareFile(w), THRESHOLD).section(w));
        }
        return sb.toString();
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
