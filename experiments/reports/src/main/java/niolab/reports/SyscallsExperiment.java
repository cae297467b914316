package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import niolab.common.ServerCatalog;

/**
 * exp-syscalls: syscalls per request by kind, per architecture and workload, from strace
 * (experiments/scripts/exp-syscalls.sh) beside the servers' own counters.
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class SyscallsExperiment implements Experiment {
    static final String[] ARCHS = ServerCatalog.selection("syscalls").toArray(new String[0]);
    static final String[] WORKLOADS = {"serial", "keepalive", "large"};
    /** Kinds below this many calls per request in every architecture stay out of the by-kind tables. */
    private static final double SHOWN = 0.005;

    @Override
    public String name() {
        return "syscalls";
    }

    /** The run: the counts per "ARCH-WORKLOAD", the short connections' traces by the same key, and mp's worker count. */
    record Data(Map<String, SyscallCounts> runs, Map<String, String> traces, int mpWorkers) {
    }

    /** One call of a short connection in LT and ET: the kinds it makes in the traced connection and its syscalls per request. */
    record Call(String call, List<String> ltKinds, double lt, List<String> etKinds, double et) {
    }

    /**
     * What the run found: per workload (WORKLOADS' order) ET's and LT's loop syscalls per request
     * and the kinds whose LT − ET is at least 0.5 (largest first); the serial connection's calls
     * (null when untraced) and those that make half a syscall per request more in LT; the partial
     * writes over all runs.
     */
    record Findings(Data data, double[] etLoop, double[] ltLoop, List<Map.Entry<String, Double>>[] kindDiffs, List<Call> calls,
            List<Call> extra, long partialWrites) {
    }

    static Data load(Results results) {
        Map<String, SyscallCounts> runs = new TreeMap<>();
        Map<String, String> traces = new TreeMap<>();
        for (String w : WORKLOADS) {
            for (String a : ARCHS) {
                runs.put(a + "-" + w, new SyscallCounts(results, a, w));
                if (results.has("trace-" + a + "-" + w + ".txt")) traces.put(a + "-" + w, results.text("trace-" + a + "-" + w + ".txt").trim());
            }
        }
        return new Data(runs, traces, workers(results.text("counters-mp-serial.txt")));
    }

    @SuppressWarnings("unchecked")
    static Findings analyse(Data d) {
        Map<String, SyscallCounts> runs = d.runs;
        double[] et = new double[WORKLOADS.length], lt = new double[WORKLOADS.length];
        List<Map.Entry<String, Double>>[] diffs = new List[WORKLOADS.length];
        for (int i = 0; i < WORKLOADS.length; i++) {
            et[i] = runs.get("et-" + WORKLOADS[i]).total("loop", 0);
            lt[i] = runs.get("lt-" + WORKLOADS[i]).total("loop", 0);
            diffs[i] = kindDiff(runs.get("lt-" + WORKLOADS[i]), runs.get("et-" + WORKLOADS[i]));
        }
        List<Call> calls = null, extra = new ArrayList<>();
        if (d.traces.containsKey("lt-serial") && d.traces.containsKey("et-serial")) {
            calls = jdkCalls(runs.get("lt-serial"), d.traces.get("lt-serial"), runs.get("et-serial"), d.traces.get("et-serial"));
            for (Call c : calls) {
                if (c.lt - c.et >= 0.5) extra.add(c);
            }
        }
        long partial = 0;
        for (SyscallCounts r : runs.values()) partial += r.counters.get("partial_writes");
        return new Findings(d, et, lt, diffs, calls, extra, partial);
    }

    @Override
    public void generate(Results results, Report report) {
        render(analyse(load(results)), report);
    }

    static void render(Findings f, Report report) {
        Map<String, SyscallCounts> runs = f.data.runs;
        for (int i = 0; i < WORKLOADS.length; i++) {
            String w = WORKLOADS[i];
            report.put(w + "_overview", overview(runs, w));
            report.put(w + "_by_kind", byKind(runs, w, "loop"));
            report.put(w + "_et_vs_lt", CountComparison.fewerOrMore("ET", f.etLoop[i], "LT", f.ltLoop[i], "syscalls per request on its event loop thread"));
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, Double> e : f.kindDiffs[i]) parts.add("`" + e.getKey() + "` " + (e.getValue() > 0 ? "+" : "") + Md.f2(e.getValue()));
            report.put(w + "_lt_minus_et", parts.isEmpty() ? "no kind differs by 0.5 calls per request or more" : String.join(", ", parts));
            report.put(w + "_waits", waits(runs, w));
            for (String a : ARCHS) {
                if (f.data.traces.containsKey(a + "-" + w)) report.put("trace_" + a + "_" + w, f.data.traces.get(a + "-" + w));
            }
        }
        report.put("jvm_by_kind", jvmTable(runs));
        report.put("mp_workers", Integer.toString(f.data.mpWorkers));
        report.put("mp_vs_lt", mpVsLt(runs));
        report.put("loop_futex", loopFutex(runs));
        report.put("et_large_eagain", Md.f2(runs.get("et-large").perRequest("loop", "read", 2)));
        report.put("partial_writes", Long.toString(f.partialWrites));
        report.put("serial_traced", f.calls != null);
        List<String> extra = new ArrayList<>();
        for (Call c : f.extra) extra.add(c.call + " " + "+" + Md.f2(c.lt - c.et) + " (" + String.join(", ", c.ltKinds) + " in the traced connection)");
        report.put("serial_jdk_extra", String.join("; ", extra));
        if (f.calls == null) return;
        List<List<String>> rows = new ArrayList<>();
        for (Call c : f.calls) {
            rows.add(List.of(c.call, kinds(c.ltKinds), Md.f2(c.lt), kinds(c.etKinds), Md.f2(c.et), (c.lt - c.et >= 0 ? "+" : "") + Md.f2(c.lt - c.et)));
        }
        report.put("serial_jdk_calls", Md.table(List.of("call", "LT: its syscalls in the traced connection", "LT per request",
                "ET: its syscalls in the traced connection", "ET per request", "LT − ET"), rows));
    }

    /**
     * The call a short connection's syscall comes from, by the first rule its trace line matches
     * (lt's through the JDK, et's its own): the one place the attribution is kept. A lone
     * {@code F_GETFL} is accept's (the JDK puts an accepted socket in blocking mode); a
     * {@code F_GETFL} followed by {@code F_SETFL} is configureBlocking's (see {@link #families}).
     */
    static final String[][] CALL_RULES = {
        {"accept", "accept"}, {"getsockname", "accept"}, {"fcntl", "accept"},
        {"setsockopt", "setOption"}, {"epoll_ctl(.*EPOLL_CTL_ADD", "register"},
        {"getsockopt", "close"}, {"shutdown", "close"}, {"epoll_ctl(.*EPOLL_CTL_DEL", "close"}, {"close", "close"},
        {"read", "read and write"}, {"write", "read and write"}, {"sendto", "read and write"}, {"epoll_wait", "select"},
    };
    static final String[] CALLS = {"accept", "configureBlocking", "setOption", "register", "read and write", "select", "close", "other"};

    /** Per trace line: {syscall kind, the call it comes from}. */
    static List<String[]> families(String trace) {
        List<String[]> out = new ArrayList<>();
        String[] lines = trace.trim().split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].trim(), kind = line.contains("(") ? line.substring(0, line.indexOf('(')) : line, call = "other";
            String next = i + 1 < lines.length ? lines[i + 1].trim() : "";
            // configureBlocking's F_SETFL, or the F_GETFL just before it
            if (line.startsWith("fcntl(") && (line.contains("F_SETFL") || next.startsWith("fcntl(") && next.contains("F_SETFL"))) {
                call = "configureBlocking";
            } else {
                for (String[] rule : CALL_RULES) {
                    if (Pattern.compile("^" + rule[0].replace("(", "\\(")).matcher(line).find()) {
                        call = rule[1];
                        break;
                    }
                }
            }
            out.add(new String[] {kind, call});
        }
        return out;
    }

    /**
     * Syscalls per serial request by the call they come from: each kind's counted calls per
     * request (strace -c) shared out as the traced connection shares that kind among the calls.
     */
    static Map<String, Double> perCall(SyscallCounts run, String trace) {
        List<String[]> lines = families(trace);
        Map<String, Integer> ofKind = new TreeMap<>();
        for (String[] l : lines) ofKind.merge(l[0], 1, Integer::sum);
        Map<String, Double> out = new TreeMap<>();
        for (String[] l : lines) out.merge(l[1], run.perRequest("loop", l[0], 0) / ofKind.get(l[0]), Double::sum);
        return out;
    }

    private static String kinds(List<String> k) {
        return k == null ? "–" : "`" + String.join(" ", k) + "`";
    }

    /** Per call of a short connection, in the order of its life, the syscalls LT and ET make for it (calls neither makes left out). */
    private static List<Call> jdkCalls(SyscallCounts lt, String ltTrace, SyscallCounts et, String etTrace) {
        Map<String, Double> l = perCall(lt, ltTrace), e = perCall(et, etTrace);
        Map<String, List<String>> ltKinds = new TreeMap<>(), etKinds = new TreeMap<>();
        for (String[] x : families(ltTrace)) ltKinds.computeIfAbsent(x[1], k -> new ArrayList<>()).add(x[0]);
        for (String[] x : families(etTrace)) etKinds.computeIfAbsent(x[1], k -> new ArrayList<>()).add(x[0]);
        List<Call> calls = new ArrayList<>();
        for (String call : CALLS) {
            double a = l.getOrDefault(call, 0.0), b = e.getOrDefault(call, 0.0);
            if (a == 0 && b == 0) continue;
            calls.add(new Call(call, ltKinds.get(call), a, etKinds.get(call), b));
        }
        return calls;
    }

    private static String overview(Map<String, SyscallCounts> runs, String w) {
        List<List<String>> rows = new ArrayList<>();
        for (String a : ARCHS) {
            SyscallCounts r = runs.get(a + "-" + w);
            rows.add(List.of(a, Md.f0(r.requests), Md.f2(r.total("loop", 0)), Md.f2(r.total("jvm", 0)),
                    Md.f3(r.waits()), Md.f2(r.counters.eventsPerWait()),
                    Md.f3(r.perRequest("loop", "epoll_ctl", 0)), Md.f3(r.total("loop", 2)), Md.f3(r.counterEagain()),
                    Md.f0(r.counters.get("partial_writes"))));
        }
        return Md.table(List.of("arch", "requests", "syscalls/req (event loop)", "syscalls/req (other JVM threads)",
                "epoll_wait/req", "events per wait (counters)", "epoll_ctl/req", "EAGAIN/req (strace)",
                "EAGAIN/req (counters)", "partial writes"), rows);
    }

    /** Calls per request of each kind, per architecture; EAGAIN (or other errors) in brackets. */
    private static String byKind(Map<String, SyscallCounts> runs, String w, String thread) {
        TreeMap<String, Double> kinds = new TreeMap<>();
        for (String a : ARCHS) {
            SyscallCounts r = runs.get(a + "-" + w);
            for (String k : r.thread(thread).keySet()) kinds.merge(k, r.perRequest(thread, k, 0), Math::max);
        }
        List<String> order = Stats.keysAtLeast(kinds, SHOWN);
        List<List<String>> rows = new ArrayList<>();
        for (String k : order) {
            List<String> row = new ArrayList<>(List.of("`" + k + "`"));
            for (String a : ARCHS) {
                SyscallCounts r = runs.get(a + "-" + w);
                double eagain = r.perRequest(thread, k, 2), errors = r.perRequest(thread, k, 1);
                String cell = Md.f3(r.perRequest(thread, k, 0));
                if (eagain > 0) cell += " (" + Md.f3(eagain) + " EAGAIN)";
                else if (errors > 0) cell += " (" + Md.f3(errors) + " errors)";
                row.add(cell);
            }
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("syscall"));
        header.addAll(List.of(ARCHS));
        return Md.table(header, rows);
    }

    /** The other JVM threads: calls in all (they do not scale with requests) for the serial and keep-alive runs. */
    private static String jvmTable(Map<String, SyscallCounts> runs) {
        TreeMap<String, Long> kinds = new TreeMap<>();
        for (SyscallCounts r : runs.values()) {
            for (Map.Entry<String, long[]> e : r.thread("jvm").entrySet()) kinds.merge(e.getKey(), e.getValue()[0], Math::max);
        }
        List<String> order = new ArrayList<>(kinds.keySet());
        order.removeIf(k -> kinds.get(k) < 20);
        order.sort((x, y) -> Long.compare(kinds.get(y), kinds.get(x)));
        List<String> header = new ArrayList<>(List.of("syscall"));
        for (String w : WORKLOADS) {
            for (String a : ARCHS) header.add(a + " " + w);
        }
        List<List<String>> rows = new ArrayList<>();
        for (String k : order) {
            List<String> row = new ArrayList<>(List.of("`" + k + "`"));
            for (String w : WORKLOADS) {
                for (String a : ARCHS) {
                    long[] v = runs.get(a + "-" + w).thread("jvm").get(k);
                    row.add(v == null ? "0" : Long.toString(v[0]));
                }
            }
            rows.add(row);
        }
        List<String> totals = new ArrayList<>(List.of("**requests**"));
        for (String w : WORKLOADS) {
            for (String a : ARCHS) totals.add("**" + Md.f0(runs.get(a + "-" + w).requests) + "**");
        }
        rows.add(totals);
        return Md.table(header, rows);
    }

    /** Kinds whose calls per request differ by at least 0.5 between LT and ET, as LT minus ET, largest first. */
    static List<Map.Entry<String, Double>> kindDiff(SyscallCounts lt, SyscallCounts et) {
        TreeMap<String, Double> diff = new TreeMap<>();
        for (String k : lt.thread("loop").keySet()) diff.put(k, lt.perRequest("loop", k, 0) - et.perRequest("loop", k, 0));
        for (String k : et.thread("loop").keySet()) diff.put(k, lt.perRequest("loop", k, 0) - et.perRequest("loop", k, 0));
        List<Map.Entry<String, Double>> out = new ArrayList<>();
        for (Map.Entry<String, Double> e : diff.entrySet()) {
            if (Math.abs(e.getValue()) >= 0.5) out.add(e);
        }
        out.sort((x, y) -> Double.compare(Math.abs(y.getValue()), Math.abs(x.getValue())));
        return out;
    }

    private static String waits(Map<String, SyscallCounts> runs, String w) {
        SyscallCounts lt = runs.get("lt-" + w), et = runs.get("et-" + w);
        return "epoll_wait per request: LT " + Md.f3(lt.waits()) + ", ET " + Md.f3(et.waits())
                + "; events per wait (server counters): LT " + Md.f2(lt.counters.eventsPerWait())
                + ", ET " + Md.f2(et.counters.eventsPerWait())
                + "; reads that ended in EAGAIN per request: LT " + Md.f3(lt.perRequest("loop", "read", 2))
                + ", ET " + Md.f3(et.perRequest("loop", "read", 2));
    }

    private static String mpVsLt(Map<String, SyscallCounts> runs) {
        List<String> parts = new ArrayList<>();
        for (String w : WORKLOADS) {
            SyscallCounts mp = runs.get("mp-" + w), lt = runs.get("lt-" + w);
            long[] master = mp.byProcess.getOrDefault("master", new long[3]);
            parts.add(w + ": mp " + Md.f2(mp.total("loop", 0)) + " vs lt " + Md.f2(lt.total("loop", 0))
                    + " syscalls per request on the event loops; the master made " + master[0] + " calls in all");
        }
        return String.join("; ", parts);
    }

    private static String loopFutex(Map<String, SyscallCounts> runs) {
        List<String> parts = new ArrayList<>();
        for (String w : WORKLOADS) {
            parts.add(w + " " + Md.f3(runs.get("lt-" + w).perRequest("loop", "futex", 0)));
        }
        return "LT event loop futex calls per request: " + String.join(", ", parts);
    }

    static int workers(String serverOutput) {
        int n = 0;
        for (String line : serverOutput.split("\n")) {
            if (line.matches("\\[w\\d+] counters:.*")) n++;
        }
        return n;
    }
}
