package niolab.reports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import niolab.common.ServerCatalog;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;

/**
 * exp-uring: the uring server in each mode beside et (and netty-uring when it was built), on
 * keep-alive echo at 1, 50 and 1000 connections and pipelined /ping. Medians over the rounds of
 * {@code samples.csv}; the lab's claim (io_uring at least matches et at 50 and 1000
 * connections) checked for each mode on its own, with intervals from the rounds' paired ratios:
 * no mode is picked on the data it is then judged by.
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class UringExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05,
            "a second syscall interface is worth its code only for {size} of rate or CPU per request");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    private static final String[] WORKLOADS = {"echo-1", "echo-50", "echo-1000", "http-pipeline"};
    /** What exp-uring.sh runs: the catalog's selection of the same name, its first the baseline every ratio is to. */
    private static final List<String> SERVERS = ServerCatalog.selection("uring");
    static final String BASELINE = SERVERS.get(0);
    /** The ring's modes among them (not netty-uring, another architecture), each judged on its own claims. */
    static final List<String> MODES = modes(SERVERS);

    /** The baseline, then each of the ring's modes: the servers this report counts, and whose rates lab 7's notes give as ranges. */
    public static List<String> baselineAndModes() {
        List<String> servers = new ArrayList<>(List.of(BASELINE));
        servers.addAll(MODES);
        return servers;
    }

    @Override
    public String name() {
        return "uring";
    }

    /** The run: the rounds of every server and workload, its settings, the kernel's io_uring, and the compares by workload (none in older results). */
    record Data(Csv samples, Map<String, String> settings, String kernel, String uringSupport, String notes, Map<String, CompareRun> compares) {
    }

    /**
     * What the run found: the claims (from the compares, or from the rounds where there are
     * none), the modes that matched et in all of them and those that fell short in one, bufring's
     * syscalls, system time and (one connection) loop CPU over et's, and bufring's CPU per request
     * over basic's with its interval ({@code modesPaired}: from the compare, the whole process).
     */
    record Findings(Data data, List<String> servers, List<Claim> claims, List<String> matching, List<String> failing, double syscalls,
            double kernel, Interval modes, boolean modesPaired, double single) {
    }

    static Data load(Results r) {
        Map<String, CompareRun> compares = new LinkedHashMap<>();
        if (r.has("compare-echo-50.json")) {
            for (String w : WORKLOADS) {
                if (r.has("compare-" + w + ".json")) compares.put(w, CompareRun.of(r, "compare-" + w + ".json", THRESHOLD));
            }
        }
        return new Data(r.csv("samples.csv"), r.csv("settings.csv").rows().get(0), r.text("kernel.txt").trim(),
                r.text("uring-support.txt").trim().replaceFirst("^io_uring on Linux \\S+: ", ""), r.text("notes.txt").trim(), compares);
    }

    static Findings analyse(Data d) {
        Csv samples = d.samples;
        boolean compared = !d.compares.isEmpty();
        List<Claim> claims = new ArrayList<>();
        for (String w : new String[] {"echo-50", "echo-1000"}) {
            for (String m : MODES) claims.addAll(compared ? claims(d.compares.get(w), m, w) : claims(samples, m, w));
        }
        List<String> matching = new ArrayList<>(), failing = new ArrayList<>();
        for (String m : MODES) {
            List<Claim> ofMode = new ArrayList<>();
            for (Claim c : claims) {
                if (c.statement().contains(", " + mode(m) + ": ")) ofMode.add(c);
            }
            ClaimVerdict v = Verdicts.all(ofMode);
            if (v == ClaimVerdict.HOLDS) matching.add(mode(m));
            if (v == ClaimVerdict.FAILS) failing.add(mode(m));
        }
        double syscalls = median(samples, "uring-bufring", "echo-50", "syscalls_per_req") / median(samples, BASELINE, "echo-50", "syscalls_per_req");
        double kernel = median(samples, "uring-bufring", "echo-50", "loop_sys_us_per_req") / median(samples, BASELINE, "echo-50", "loop_sys_us_per_req");
        // between the modes: from the paired comparison where there is one (the whole process), else the loop thread's rounds
        Interval paired = compared ? d.compares.get("echo-50").ratio("uring-bufring", "uring-basic", CompareRun.CPU) : null;
        Interval modes = paired != null ? paired
                : Claim.ratio(loopCpuByRound(samples, "uring-bufring", "echo-50"), loopCpuByRound(samples, "uring-basic", "echo-50"));
        double single = loopCpu(samples, "uring-bufring", "echo-1") / loopCpu(samples, BASELINE, "echo-1");
        return new Findings(d, servers(samples), claims, matching, failing, syscalls, kernel, modes, paired != null, single);
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static void render(Findings f, Report out) {
        Csv samples = f.data.samples;
        Map<String, String> settings = f.data.settings;
        for (String w : WORKLOADS) out.put(w.replace('-', '_') + "_table", table(samples, f.servers, w));
        out.put("warmup", settings.get("warmup"));
        out.put("duration", settings.get("duration"));
        out.put("rounds", settings.get("rounds"));
        out.put("kernel", f.data.kernel);
        out.put("uring_support", f.data.uringSupport);
        out.put("notes", f.data.notes.isEmpty() ? "" : " (" + f.data.notes + ".)");
        for (String s : baselineAndModes()) {
            String k = s.equals(BASELINE) ? s : mode(s);
            for (String c : new String[] {"1", "50"}) {
                out.put(k + "_syscalls_" + c, Md.f2(median(samples, s, "echo-" + c, "syscalls_per_req")));
                out.put(k + "_loop_cpu_" + c, Md.f2(loopCpu(samples, s, "echo-" + c)));
                out.put(k + "_user_" + c, Md.f2(median(samples, s, "echo-" + c, "loop_user_us_per_req")));
                out.put(k + "_sqes_" + c, Md.f2(median(samples, s, "echo-" + c, "sqes_per_req")));
            }
        }
        out.put("bufring_per_enter_50", Md.f0(median(samples, "uring-bufring", "echo-50", "completions_per_enter")));
        out.put("bufring_per_enter_1000", Md.f0(median(samples, "uring-bufring", "echo-1000", "completions_per_enter")));
        double[] sys50 = new double[f.servers.size()];
        for (int i = 0; i < sys50.length; i++) sys50[i] = median(samples, f.servers.get(i), "echo-50", "loop_sys_us_per_req");
        out.put("loop_sys_range_50", Md.f1(min(sys50)) + " to " + Md.f1(max(sys50)));
        out.put("sys_comparison", comparison("bufring's", BASELINE + "'s", "system time",
                median(samples, "uring-bufring", "echo-50", "loop_sys_us_per_req"), median(samples, BASELINE, "echo-50", "loop_sys_us_per_req")));
        out.put("user_comparison", comparison("bufring's loop", BASELINE + "'s", "user time",
                median(samples, "uring-bufring", "echo-50", "loop_user_us_per_req"), median(samples, BASELINE, "echo-50", "loop_user_us_per_req")));
        out.put("compared", !f.data.compares.isEmpty());
        out.put("cmp_warmup", String.valueOf(settings.get("cmp_warmup")));
        out.put("threshold", THRESHOLD.declared());
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, CompareRun> c : f.data.compares.entrySet()) sb.append(sb.length() == 0 ? "" : "\n\n").append(c.getValue().section(c.getKey()));
        out.put("compare_sections", sb.toString());
        Claim.report(f.claims, "uring / " + BASELINE, out);
        CompareRun echo50 = f.data.compares.get("echo-50");
        if (echo50 != null) CompareRun.forkPrecision(out, echo50.forks(), echo50.roundsPerFork());
        out.put("uring_matching", String.join(" and ", f.matching));
        out.put("uring_failing", String.join(" and ", f.failing));
        out.put("syscalls_share", Md.f0(f.syscalls * 100));
        out.put("kernel_less", Math.abs(f.kernel - 1) < Math.abs(f.syscalls - 1));
        out.put("kernel_ratio", Md.f2(f.kernel));
        out.put("modes_paired", f.modesPaired);
        out.put("modes_ratio", Md.f2(f.modes.estimate()));
        out.put("modes_low", Md.edge(f.modes, f.modes.low(), 1 - THRESHOLD.value(), 1 + THRESHOLD.value()));
        out.put("modes_high", Md.edge(f.modes, f.modes.high(), 1 - THRESHOLD.value(), 1 + THRESHOLD.value()));
        out.put("modes_verdict", modesVerdict(f.modes, THRESHOLD.value()));
        out.put("single_ratio", Md.f2(f.single));
    }

    /** At {@code w}: one uring mode against et from the compare run, rate and CPU per request (the whole process). */
    private static List<Claim> claims(CompareRun run, String server, String w) {
        String at = w.substring("echo-".length()) + " connections, " + mode(server) + ": ";
        List<Claim> claims = new ArrayList<>();
        ForkInterval rate = run.has(server) ? run.forkRatio(server, BASELINE, CompareRun.RATE) : null;
        ForkInterval cpu = run.has(server) ? run.forkRatio(server, BASELINE, CompareRun.CPU) : null;
        if (rate != null) claims.add(Claim.atLeast(at + "req/s at least " + BASELINE + "'s", rate, run.rounds(server, BASELINE), 1.0));
        if (cpu != null) claims.add(Claim.atMost(at + "JVM CPU µs/req at most " + BASELINE + "'s", cpu, run.rounds(server, BASELINE), 1.0));
        return claims;
    }

    /** The entries of {@code servers} that the uring architecture runs, in their order. */
    private static List<String> modes(List<String> servers) {
        List<String> modes = new ArrayList<>();
        for (String s : servers) {
            if (ServerCatalog.server(s).arch().equals("uring")) modes.add(s);
        }
        return modes;
    }

    /** How the report names a mode: its catalog label without the architecture ({@code uring bufring}: bufring). */
    static String mode(String server) {
        ServerCatalog.Server s = ServerCatalog.server(server);
        return s.label().startsWith(s.arch() + " ") ? s.label().substring(s.arch().length() + 1) : s.label();
    }

    /** The servers in the order the run measured them. */
    private static List<String> servers(Csv samples) {
        Set<String> s = new LinkedHashSet<>();
        for (Map<String, String> row : samples.rows()) s.add(row.get("server"));
        return new ArrayList<>(s);
    }

    private static String table(Csv samples, List<String> servers, String w) {
        List<List<String>> rows = new ArrayList<>();
        for (String s : servers) {
            double[] qps = samples.numbers("requests_per_s", "server", s, "workload", w);
            double errors = Stats.sum(samples.numbers("errors", "server", s, "workload", w));
            rows.add(List.of(s, Md.f0(Stats.median(qps)), Md.f0(min(qps)) + " – " + Md.f0(max(qps)),
                    Md.f0(median(samples, s, w, "p99_us")), Md.f2(median(samples, s, w, "server_cpu_us_per_req")),
                    orDash(median(samples, s, w, "loop_user_us_per_req")) + " + " + orDash(median(samples, s, w, "loop_sys_us_per_req")),
                    orDash(median(samples, s, w, "syscalls_per_req")), orDash(median(samples, s, w, "sqes_per_req")),
                    orDash(median(samples, s, w, "completions_per_enter")), Md.f3(median(samples, s, w, "ctx_switches_per_req")),
                    Md.f0(errors)));
        }
        return Md.table(List.of("server", "req/s (median)", "range over rounds", "p99 µs", "JVM CPU µs/req",
                "loop thread user + sys µs/req", "syscalls/req", "SQEs/req", "completions per enter",
                "context switches/req", "errors"), rows);
    }

    /** At {@code w}: one uring mode against et, in req/s and both CPU measures, each ratio paired by round. */
    private static List<Claim> claims(Csv samples, String server, String w) {
        String at = w.substring("echo-".length()) + " connections, " + mode(server) + ": ";
        int rounds = samples.numbers("requests_per_s", "server", BASELINE, "workload", w).length;
        return List.of(
                Claim.atLeast(at + "req/s at least " + BASELINE + "'s", Claim.paired(byRound(samples, server, w, "requests_per_s"),
                        byRound(samples, BASELINE, w, "requests_per_s")), rounds, 1.0),
                Claim.atMost(at + "loop thread CPU µs/req at most " + BASELINE + "'s", Claim.paired(loopCpuByRound(samples, server, w),
                        loopCpuByRound(samples, BASELINE, w)), rounds, 1.0),
                Claim.atMost(at + "JVM CPU µs/req at most " + BASELINE + "'s", Claim.paired(byRound(samples, server, w, "server_cpu_us_per_req"),
                        byRound(samples, BASELINE, w, "server_cpu_us_per_req")), rounds, 1.0));
    }

    private static double[] byRound(Csv samples, String server, String w, String column) {
        return samples.numbers(column, "server", server, "workload", w);
    }

    /** The loop thread's user + system µs per request, one per round. */
    private static double[] loopCpuByRound(Csv samples, String server, String w) {
        double[] user = byRound(samples, server, w, "loop_user_us_per_req"), sys = byRound(samples, server, w, "loop_sys_us_per_req");
        double[] v = new double[user.length];
        for (int i = 0; i < v.length; i++) v[i] = user[i] + sys[i];
        return v;
    }

    private static double loopCpu(Csv samples, String server, String w) {
        return median(samples, server, w, "loop_user_us_per_req") + median(samples, server, w, "loop_sys_us_per_req");
    }

    /** bufring's CPU per request over basic's against the report's threshold, in words. */
    static String modesVerdict(Interval modes, double threshold) {
        return Verdicts.moreOrLess(modes, threshold, "CPU");
    }

    /** {@code bufring's system time is 1.01× et's (6.51 against 6.43 µs per request)}. */
    private static String comparison(String who, String whom, String what, double a, double b) {
        return String.format(Locale.ROOT, "%s %s is %s× %s (%s against %s µs per request)", who, what, Md.f2(a / b), whom, Md.f2(a), Md.f2(b));
    }

    private static double median(Csv samples, String server, String w, String column) {
        return Stats.median(samples.numbers(column, "server", server, "workload", w));
    }

    private static String orDash(double v) {
        return Double.isNaN(v) ? "–" : Md.f2(v);
    }

    /** The smallest measured value (a server without a loop thread, netty-uring, has none: NaN). */
    private static double min(double[] v) {
        double m = Double.NaN;
        for (double x : v) {
            if (!Double.isNaN(x) && !(x >= m)) m = x;
        }
        return m;
    }

    private static double max(double[] v) {
        double m = Double.NaN;
        for (double x : v) {
            if (!Double.isNaN(x) && !(x <= m)) m = x;
        }
        return m;
    }
}
