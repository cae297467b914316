package niolab.reports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import niolab.common.ServerCatalog;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;

/**
 * exp-architectures: every server side by side (experiments/scripts/exp-architectures.sh):
 * keep-alive echo by connections, serial short connections, keep-alive and pipelined /ping,
 * with the server's CPU and context switches per request, its memory at 10,000 idle
 * connections and its time from exec to ready; the lab's claims checked on the run.
 */
public final class ArchitecturesExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05,
            "at 50 connections a server design is worth choosing for {size} of rate or CPU per request; less, a deployment's other costs swamp");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    /** Every server the catalog knows, the script's in its order first, with how the report names it ({@code {n}}: the loop count). */
    static final Map<String, String> LABELS = new LinkedHashMap<>();

    static {
        for (String s : ServerCatalog.selection("architectures")) LABELS.put(s, ServerCatalog.server(s).label());
        for (ServerCatalog.Server s : ServerCatalog.servers()) LABELS.putIfAbsent(s.name(), s.label());
    }

    public static final String SHORT = "echo-short", PING = "ping-keepalive", PIPELINE = "ping-pipeline";
    /** exp-syscalls' architectures and workloads this report quotes. */
    private static final String[] SYSCALL_ARCHS = ServerCatalog.selection("syscalls").toArray(new String[0]), SYSCALL_WORKLOADS = {"keepalive", "serial"};

    @Override
    public String name() {
        return "architectures";
    }

    /** The run as read: its compare runs and tables, and exp-syscalls' loop-thread syscalls per request by "arch-workload". */
    record Data(ArchitecturesRun run, Map<String, Double> syscalls) {
    }

    /** Whether a comparison of two servers in one measure could be made on this run. */
    enum Presence { MEASURED, NOT_MEASURED, SERVED_NONE }

    /** Server {@code a} against {@code b} in one measure, paired by round: the rate's and CPU's ratios (null under 2 paired rounds). */
    record Versus(String a, String b, String measure, Presence presence, Interval rate, Interval cpu) {
    }

    /** RSS at the idle connections of {@code a} against {@code b}: KB more (negative: less) per connection. */
    record Memory(String a, String b, boolean measured, double kbMore) {
    }

    /** The highest median rate in a measure and the next ({@code null} where none), with their paired ratio. */
    record Fastest(String first, String second, Interval ratio) {
    }

    /**
     * What the run found: the server's share of the cores ({@code scales}: a core per loop), the
     * comparisons the analysis rests on, the fastest pipelined server, and the lab's claims.
     */
    record Findings(Data data, int serverCores, boolean scales, Versus vtAt, Versus vtShort, Versus vtTop, Memory vtMemory,
            List<Versus> loops, List<Versus> ffm, List<Versus> codec, List<Versus> c, Fastest pipeline, List<Claim> claims) {
    }

    @Override
    public void generate(Results r, Report out) {
        out.put("env", r.environment(THRESHOLD));
        render(analyse(load(r)), out);
    }

    static Data load(Results r) {
        Results sys = new Results(r.dir.resolveSibling("syscalls"));
        Map<String, Double> perRequest = new LinkedHashMap<>();
        for (String a : SYSCALL_ARCHS) {
            for (String w : SYSCALL_WORKLOADS) perRequest.put(a + "-" + w, new SyscallCounts(sys, a, w).total("loop", 0));
        }
        return new Data(new ArchitecturesRun(r), perRequest);
    }

    static Findings analyse(Data d) {
        ArchitecturesRun run = d.run;
        String at = "echo-ka-" + run.setting("connections");
        int serverCores = run.cores / 2;
        return new Findings(d, serverCores, serverCores >= 2, versus(run, "vt", "lt", at), versus(run, "vt", "lt", SHORT),
                versus(run, "vt", "lt", run.top()), memory(run, "vt", "lt"),
                List.of(versus(run, "lt-loops", "lt", at), versus(run, "et-loops", "et", at), versus(run, "mp", "lt", at)),
                List.of(versus(run, "et-ffm", "et", at), versus(run, "et-ffm", "et", PING)),
                List.of(versus(run, "netty-http", "netty-epoll", PIPELINE), versus(run, "netty-http", "netty-epoll", PING)),
                List.of(versus(run, "lt", "c", PING), versus(run, "et", "c", PING), versus(run, "lt", "c", SHORT), versus(run, "et", "c", SHORT)),
                fastest(run, PIPELINE), claims(run));
    }

    static void render(Findings f, Report out) {
        ArchitecturesRun run = f.data.run;
        settings(f, out);
        echoTables(run, out);
        pingTable(run, out);
        ratioTables(run, out);
        perRequestTables(run, out);
        memoryTable(run, out);
        syscalls(f.data.syscalls, out);
        evidence(f, out);
        Claim.report(f.claims, "measured", out);
        CompareRun.forkPrecision(out, run.forks(run.top()), Integer.parseInt(run.setting("rounds")));
    }

    private static void settings(Findings f, Report out) {
        ArchitecturesRun run = f.data.run;
        for (String k : List.of("rounds", "slice", "c10k_rounds", "c10k_slice", "warmup", "idle_connections", "connections", "depth", "loops",
                "client_threads", "backlog", "nofile", "load_at_start", "load_at_end")) {
            out.put(k, run.setting(k));
        }
        out.put("design_forks", Integer.toString(run.forks(run.top())));
        out.put("design_forked", run.forks(run.top()) > 1);
        out.put("levels", String.join(", ", run.levels));
        out.put("servers", String.join(", ", run.servers));
        out.put("cores", Integer.toString(run.cores));
        out.put("server_cores", Integer.toString(f.serverCores));
        out.put("cores_per_loop", f.scales ? "yes" : "no");
    }

    /** Keep-alive echo by connections, the short-connection rate, errors; and the two charts. */
    private static void echoTables(ArchitecturesRun run, Report out) {
        List<String> header = new ArrayList<>(List.of("server"));
        for (String c : run.levels) header.add("req/s at " + c);
        header.addAll(List.of("short conn/s", "errors at " + run.topLevel(), "errors, all echo runs"));
        List<List<String>> rows = new ArrayList<>();
        double[] x = new double[run.levels.size()];
        for (int i = 0; i < x.length; i++) x[i] = Double.parseDouble(run.levels.get(i));
        SvgChart rate = new SvgChart("Keep-alive echo: requests/s by connections", "connections (log2)", "requests/s").logX();
        SvgChart cpu = new SvgChart("Keep-alive echo: server CPU per request", "connections (log2)", "server CPU µs/request").logX();
        long errorsAtTop = 0;
        for (String s : run.echoServers()) {
            List<String> row = new ArrayList<>(List.of(run.label(s)));
            double[] rates = new double[x.length], cpus = new double[x.length];
            long errors = 0;
            for (int i = 0; i < x.length; i++) {
                String m = "echo-ka-" + run.levels.get(i);
                rates[i] = run.rate(s, m);
                // a level that served nothing has no CPU per request: drawn at 0, shown in the table
                cpus[i] = rates[i] > 0 ? run.cpu(s, m) : 0;
                errors += run.errors(s, m);
                row.add(withInterval(run.rates(s, m), rates[i]));
            }
            long top = run.errors(s, run.top());
            errorsAtTop += top;
            row.addAll(List.of(withInterval(run.rates(s, SHORT), run.rate(s, SHORT)), Long.toString(top),
                    Long.toString(errors + run.errors(s, SHORT))));
            rows.add(row);
            rate.series(run.label(s), x, rates);
            cpu.series(run.label(s), x, cpus);
        }
        out.put("echo_table", Md.table(header, rows));
        out.put("errors_at_top", Long.toString(errorsAtTop));
        out.put("clean_at_top", run.clean(run.top()) + " of " + run.echoServers().size());
        out.chart("architectures-echo-rate.svg", rate.render());
        out.chart("architectures-echo-cpu.svg", cpu.render());
    }

    private static void pingTable(ArchitecturesRun run, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (String s : run.servers) {
            rows.add(List.of(run.label(s), withInterval(run.rates(s, PING), run.rate(s, PING)), withInterval(run.rates(s, PIPELINE), run.rate(s, PIPELINE)),
                    cpuWithInterval(run, s, PING), cpuWithInterval(run, s, PIPELINE), Long.toString(run.errors(s, PING) + run.errors(s, PIPELINE))));
        }
        out.put("ping_table", Md.table(List.of("server", "keep-alive req/s", "pipelined x" + run.setting("depth") + " req/s",
                "CPU µs/req keep-alive", "CPU µs/req pipelined", "errors"), rows));
    }

    /**
     * Per request in the four headline measures: server CPU (with its ratio to the C
     * reference's), and context switches (voluntary + involuntary) beside events per wait from
     * the counters.
     */
    private static void perRequestTables(ArchitecturesRun run, Report out) {
        String[] measures = {"echo-ka-" + run.setting("connections"), SHORT, PING, PIPELINE};
        List<List<String>> cpuRows = new ArrayList<>(), switchRows = new ArrayList<>();
        for (String s : run.servers) {
            List<String> cpu = new ArrayList<>(List.of(run.label(s))), switches = new ArrayList<>(List.of(run.label(s)));
            for (String m : measures) {
                cpu.add(run.has(s, m) ? measured(run.cpu(s, m)) + " (" + ratio(run.has("c", m) ? run.cpuRatio(s, "c", m) : null) + ")" : "–");
                switches.add(run.has(s, m) ? measured3(run.switches(s, m)) : "–");
            }
            switches.add(events(run.r, s, "echo"));
            switches.add(events(run.r, s, "http"));
            cpuRows.add(cpu);
            switchRows.add(switches);
        }
        String echoAt = "keep-alive echo, " + run.setting("connections") + " conns";
        out.put("cpu_table", Md.table(List.of("server", echoAt, "short connections", "keep-alive /ping", "pipelined /ping"), cpuRows));
        out.put("switches_table", Md.table(List.of("server", echoAt, "short connections", "keep-alive /ping", "pipelined /ping",
                "events per wait, echo server", "events per wait, HTTP server"), switchRows));
    }

    /** Two decimals; "–" where nothing was served to divide by. */
    private static String measured(double v) {
        return Double.isFinite(v) ? Md.f2(v) : "–";
    }

    /** Three decimals, for counts per request well under one; "–" where nothing was served. */
    private static String measured3(double v) {
        return Double.isFinite(v) ? Md.f3(v) : "–";
    }

    /**
     * Events per wait over the server's whole run, from its last counters line; "–" when it
     * prints none, or never waits for events (vt blocks in each connection's own read).
     */
    private static String events(Results r, String server, String protocol) {
        String log = "raw/server-" + server + "-" + protocol + ".log";
        if (!r.has(log) || !r.text(log).contains("counters:")) return "–";
        double e = r.counters(log).eventsPerWait();
        return Double.isNaN(e) || e == 0 ? "–" : Md.f2(e);
    }

    /** "61234 [58000, 63000]": a rate's median over the rounds and its interval; the median alone under 2 rounds. */
    static String withInterval(double[] perRound, double median) {
        Interval i = ArchitecturesRun.median(perRound);
        return i == null ? Md.f0(median) : Md.f0(median) + " [" + Md.f0(i.low()) + ", " + Md.f0(i.high()) + "]";
    }

    private static String cpuWithInterval(ArchitecturesRun run, String s, String m) {
        Interval i = ArchitecturesRun.median(run.cpus(s, m));
        return i == null ? measured(run.cpu(s, m)) : Md.interval(i);
    }

    /** "1.12× [1.05, 1.20]", or "–" without 2 paired rounds. */
    static String ratio(Interval i) {
        return i == null ? "–" : Md.ratio(i);
    }

    /**
     * Every server against lt in every measure, paired by round: the median of the per-round
     * ratios with its interval, for the rate and, from CPU's own ratios, for CPU per request.
     */
    static void ratioTables(ArchitecturesRun run, Report out) {
        List<String> measures = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("server"));
        for (String c : run.levels) {
            measures.add("echo-ka-" + c);
            header.add("echo at " + c);
        }
        measures.addAll(List.of(SHORT, PING, PIPELINE));
        header.addAll(List.of("short connections", "keep-alive /ping", "pipelined /ping"));
        List<List<String>> rateRows = new ArrayList<>(), cpuRows = new ArrayList<>();
        for (String s : run.servers) {
            if (s.equals("lt")) continue;
            List<String> rate = new ArrayList<>(List.of(run.label(s))), cpu = new ArrayList<>(List.of(run.label(s)));
            for (String m : measures) {
                boolean both = run.has(s, m) && run.has("lt", m);
                rate.add(both ? Verdicts.cell(run.rateRatio(s, "lt", m), Comparison.Quantity.RATE, run.threshold) : "–");
                cpu.add(both ? Verdicts.cell(run.cpuRatio(s, "lt", m), Comparison.Quantity.COST, run.threshold) : "–");
            }
            rateRows.add(rate);
            cpuRows.add(cpu);
        }
        out.put("rate_ratio_table", Md.table(header, rateRows));
        out.put("cpu_ratio_table", Md.table(header, cpuRows));
    }

    private static void memoryTable(ArchitecturesRun run, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (String s : run.servers) {
            double[] ready = run.ready.numbers("ready_ms", "server", s);
            boolean idle = run.hasIdle(s);
            Map<String, String> row = idle ? run.idle.row("server", s) : Map.of();
            rows.add(List.of(run.label(s), idle ? row.get("connections") : "–", idle ? row.get("failed") : "–",
                    idle ? Md.f1(run.rssMb(s)) : "–", Md.f0(Stats.median(ready)),
                    Md.f0(ready[Stats.best(ready, false)]) + " – " + Md.f0(ready[Stats.best(ready, true)])));
        }
        out.put("memory_table", Md.table(List.of("server", "idle connections open", "connects failed", "RSS (MB)",
                "exec to ready (ms, median)", "exec to ready (min – max)"), rows));
    }

    /** Syscalls per request on the event loop thread, as exp-syscalls measured them under strace. */
    private static void syscalls(Map<String, Double> perRequest, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (String a : SYSCALL_ARCHS) {
            List<String> row = new ArrayList<>(List.of(a));
            for (String w : SYSCALL_WORKLOADS) row.add(Md.f2(perRequest.get(a + "-" + w)));
            rows.add(row);
        }
        out.put("syscalls_table", Md.table(List.of("server", "keep-alive echo", "serial short connections"), rows));
        for (String w : SYSCALL_WORKLOADS) {
            out.put("syscalls_" + w, CountComparison.fewerOrMore("et", perRequest.get("et-" + w), "lt", perRequest.get("lt-" + w), "syscalls per request"));
        }
    }

    /** The comparisons the analysis rests on, as sentences that follow the figures. */
    private static void evidence(Findings f, Report out) {
        ArchitecturesRun run = f.data.run;
        out.put("vt_evidence", versus(run, f.vtAt));
        out.put("vt_short", versus(run, f.vtShort));
        out.put("vt_top", versus(run, f.vtTop));
        memory(run, f.vtMemory, "vt_memory", out);
        out.put("loops_evidence", versus(run, f.loops));
        out.put("ffm_evidence", versus(run, f.ffm));
        out.put("codec_evidence", versus(run, f.codec));
        out.put("c_evidence", versus(run, f.c));
        out.put("fastest_pipeline", fastest(run, f.pipeline));
    }

    /** The measure in words: "Keep-alive echo at 50 connections", "Short connections", "Keep-alive /ping", "Pipelined /ping". */
    static String measureWords(String m) {
        return switch (m) {
            case SHORT -> "Short connections";
            case PING -> "Keep-alive /ping";
            case PIPELINE -> "Pipelined /ping";
            default -> "Keep-alive echo at " + m.substring("echo-ka-".length()) + " connections";
        };
    }

    /** The server with the highest median rate in measure {@code m}, and the next. */
    static Fastest fastest(ArchitecturesRun run, String m) {
        String first = null, second = null;
        for (String s : run.servers) {
            if (!run.has(s, m)) continue;
            if (first == null || run.rate(s, m) > run.rate(first, m)) {
                second = first;
                first = s;
            } else if (second == null || run.rate(s, m) > run.rate(second, m)) {
                second = s;
            }
        }
        return new Fastest(first, second, first == null || second == null ? null : run.rateRatio(first, second, m));
    }

    /** The fastest server and whether this run can tell it from the next: their paired per-round ratio, in words. */
    static String fastest(ArchitecturesRun run, Fastest f) {
        if (f.first == null) return "none measured";
        String m = PIPELINE;
        String top = run.label(f.first) + " (" + Md.f0(run.rate(f.first, m)) + " req/s, the highest median)";
        if (f.second == null) return top;
        return top + "; against the next, " + run.label(f.second) + " (" + Md.f0(run.rate(f.second, m)) + " req/s): "
                + (f.ratio == null ? "too few paired rounds to tell them apart" : Comparison.describe(f.ratio, Comparison.Quantity.RATE, run.threshold));
    }

    private static Memory memory(ArchitecturesRun run, String a, String b) {
        if (!run.hasIdle(a) || !run.hasIdle(b)) return new Memory(a, b, false, Double.NaN);
        return new Memory(a, b, true, (run.rssMb(a) - run.rssMb(b)) * 1024 / Double.parseDouble(run.setting("idle_connections")));
    }

    /**
     * Two servers' RSS at the idle connections, for the template's sentence: {@code KEY_measured},
     * their names and labels, each one's MB, the KB per connection between them and whether
     * {@code a} holds "more" or "less" ({@code KEY_case}).
     */
    private static void memory(ArchitecturesRun run, Memory m, String key, Report out) {
        out.put(key + "_measured", m.measured);
        out.put(key + "_a", m.a);
        out.put(key + "_b", m.b);
        if (!m.measured) return;
        out.put(key + "_a_label", run.label(m.a));
        out.put(key + "_b_label", run.label(m.b));
        out.put(key + "_a_mb", Md.f1(run.rssMb(m.a)));
        out.put(key + "_b_mb", Md.f1(run.rssMb(m.b)));
        out.put(key + "_kb", Md.f1(Math.abs(m.kbMore)));
        out.put(key + "_case", memoryCase(m.kbMore));
    }

    /** Whether the first server holds "more" or "less" per connection than the second (KB, first minus second). */
    static String memoryCase(double kbMore) {
        return kbMore >= 0 ? "more" : "less";
    }

    static Versus versus(ArchitecturesRun run, String a, String b, String measure) {
        if (!run.has(a, measure) || !run.has(b, measure)) return new Versus(a, b, measure, Presence.NOT_MEASURED, null, null);
        if (!(run.rate(a, measure) > 0) || !(run.rate(b, measure) > 0)) return new Versus(a, b, measure, Presence.SERVED_NONE, null, null);
        return new Versus(a, b, measure, Presence.MEASURED, run.rateRatio(a, b, measure), run.cpuRatio(a, b, measure));
    }

    private static String versus(ArchitecturesRun run, List<Versus> all) {
        List<String> said = new ArrayList<>();
        for (Versus v : all) said.add(versus(run, v));
        return String.join(" ", said);
    }

    /**
     * "Short connections: vt 3516 req/s, ...; lt ...; vt against lt, paired by round: rate slower
     * by 8% [5%, 11%], CPU per request costlier by ...": each direction from its own interval.
     */
    static String versus(ArchitecturesRun run, Versus v) {
        String what = measureWords(v.measure);
        return switch (v.presence) {
            case NOT_MEASURED -> "(" + what + ": " + v.a + " or " + v.b + " not measured on this run.)";
            case SERVED_NONE -> "(" + what + ": " + v.a + " or " + v.b + " served no request on this run.)";
            case MEASURED -> what + ": " + run.label(v.a) + " " + point(run, v.a, v.measure) + "; " + run.label(v.b) + " " + point(run, v.b, v.measure)
                    + "; " + run.label(v.a) + " against " + run.label(v.b) + ", paired by round: rate "
                    + ratioWords(v.rate, Comparison.Quantity.RATE, run.threshold) + ", CPU per request "
                    + ratioWords(v.cpu, Comparison.Quantity.COST, run.threshold) + ".";
        };
    }

    /** A paired ratio in words with its figure, or why there is none. */
    static String ratioWords(Interval ratio, Comparison.Quantity quantity, double threshold) {
        if (ratio == null) return "not resolved (fewer than 2 paired rounds)";
        return Md.f2(ratio.estimate()) + "×, " + Comparison.describe(ratio, quantity, threshold);
    }

    private static String point(ArchitecturesRun run, String s, String m) {
        return Md.f0(run.rate(s, m)) + " req/s, " + Md.f2(run.cpu(s, m)) + " µs CPU and " + Md.f3(run.switches(s, m))
                + " context switches per request";
    }

    /**
     * The lab's event loops of this run, the architectures that run one loop or several
     * ({@code --loops}), each by its own catalog name: the claims about the cost of its hand-written loops.
     */
    static List<String> eventLoops(ArchitecturesRun run) {
        List<String> loops = new ArrayList<>();
        for (String arch : ServerCatalog.actsIn("--loops")) {
            if (run.servers.contains(arch)) loops.add(arch);
        }
        return loops;
    }

    /**
     * The lab's claims about its servers, each checked against this run's figures: a ratio's
     * interval from the rounds' ratios, paired by round (rounds interleave the servers, so round
     * i of two servers saw the same machine).
     */
    static List<Claim> claims(ArchitecturesRun run) {
        List<Claim> claims = new ArrayList<>();
        String at = "echo-ka-" + run.setting("connections");
        if (!run.echoServers().isEmpty()) {
            claims.add(Claim.atLeast("keep-alive echo at " + run.topLevel() + " connections: the share of servers serving it with 0 errors",
                    Interval.exactly((double) run.clean(run.top()) / run.echoServers().size()), 0, 1.0));
        }
        ForkInterval vtOverLt = run.has("vt", at) && run.has("lt", at) ? run.rateDesign("vt", "lt", at) : null;
        if (vtOverLt != null) {
            claims.add(Claim.atLeast("keep-alive echo at " + run.setting("connections") + " connections: vt serves at least 0.7× lt's req/s",
                    vtOverLt, ArchitecturesRun.pairedRounds(run.rates("vt", at), run.rates("lt", at)), 0.7));
        }
        String[][] cpuClaims = {{PING, "keep-alive /ping", "1.1"}, {at, "keep-alive echo", "1.1"}, {SHORT, "short connections", "1.2"}};
        List<String> loops = eventLoops(run);
        for (String s : loops) {
            for (String[] c : cpuClaims) {
                ForkInterval ratio = run.has(s, c[0]) && run.has("c", c[0]) ? run.cpuDesign(s, "c", c[0]) : null;
                if (ratio != null) {
                    claims.add(Claim.atMost(c[1] + ": " + s + " spends at most " + c[2] + "× the C reference's server CPU per request",
                            ratio, ArchitecturesRun.pairedRounds(run.cpus(s, c[0]), run.cpus("c", c[0])), Double.parseDouble(c[2])));
                }
            }
        }
        for (String s : loops) {
            if (run.hasIdle(s)) {
                claims.add(Claim.atMost(s + " holds " + run.setting("idle_connections") + " idle connections in under 100 MB of RSS (MB)",
                        Interval.exactly(run.rssMb(s)), 1, 100));
            }
        }
        return claims;
    }
}
