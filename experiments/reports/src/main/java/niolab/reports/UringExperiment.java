package niolab.reports;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;

/**
 * exp-uring: the uring server in each mode beside et (and netty-uring when it was built), on
 * keep-alive echo at 1, 50 and 1000 connections and pipelined /ping. Medians over the rounds of
 * {@code samples.csv}; the lab's claim (io_uring at least matches et at 50 and 1000
 * connections) checked for each mode on its own, with intervals from the rounds' paired ratios:
 * no mode is picked on the data it is then judged by.
 */
public final class UringExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.05, "a second syscall interface is worth its code only for 5% of rate or CPU per request");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    private static final String[] WORKLOADS = {"echo-1", "echo-50", "echo-1000", "http-pipeline"};
    private static final String[] MODES = {"uring-basic", "uring-multishot", "uring-bufring"};

    @Override
    public String name() {
        return "uring";
    }

    @Override
    public void generate(Results r, Report out) {
        Csv samples = r.csv("samples.csv");
        Map<String, String> settings = r.csv("settings.csv").rows().get(0);
        List<String> servers = servers(samples);
        for (String w : WORKLOADS) out.put(w.replace('-', '_') + "_table", table(samples, servers, w));
        out.put("warmup", settings.get("warmup"));
        out.put("duration", settings.get("duration"));
        out.put("rounds", settings.get("rounds"));
        out.put("kernel", r.text("kernel.txt").trim());
        out.put("uring_support", r.text("uring-support.txt").trim().replaceFirst("^io_uring on Linux \\S+: ", ""));
        String notes = r.text("notes.txt").trim();
        out.put("notes", notes.isEmpty() ? "" : " (" + notes + ".)");

        out.put("et_syscalls_1", Md.f2(median(samples, "et", "echo-1", "syscalls_per_req")));
        out.put("bufring_syscalls_1", Md.f2(median(samples, "uring-bufring", "echo-1", "syscalls_per_req")));
        out.put("et_syscalls_50", Md.f2(median(samples, "et", "echo-50", "syscalls_per_req")));
        out.put("bufring_syscalls_50", Md.f2(median(samples, "uring-bufring", "echo-50", "syscalls_per_req")));
        out.put("bufring_per_enter_50", Md.f0(median(samples, "uring-bufring", "echo-50", "completions_per_enter")));
        out.put("bufring_per_enter_1000", Md.f0(median(samples, "uring-bufring", "echo-1000", "completions_per_enter")));
        double[] sys50 = new double[servers.size()];
        for (int i = 0; i < sys50.length; i++) sys50[i] = median(samples, servers.get(i), "echo-50", "loop_sys_us_per_req");
        out.put("loop_sys_range_50", Md.f1(min(sys50)) + " to " + Md.f1(max(sys50)));
        out.put("sys_comparison", comparison("bufring's", "et's", "system time",
                median(samples, "uring-bufring", "echo-50", "loop_sys_us_per_req"), median(samples, "et", "echo-50", "loop_sys_us_per_req")));
        out.put("user_comparison", comparison("bufring's loop", "et's", "user time",
                median(samples, "uring-bufring", "echo-50", "loop_user_us_per_req"), median(samples, "et", "echo-50", "loop_user_us_per_req")));
        out.put("submissions_note", String.format(Locale.ROOT, "%s SQEs per request at 50 connections, against %s for multishot and %s for basic",
                Md.f2(median(samples, "uring-bufring", "echo-50", "sqes_per_req")),
                Md.f2(median(samples, "uring-multishot", "echo-50", "sqes_per_req")),
                Md.f2(median(samples, "uring-basic", "echo-50", "sqes_per_req"))));

        List<Claim> claims = new ArrayList<>();
        boolean compared = r.has("compare-echo-50.json");
        for (String w : new String[] {"echo-50", "echo-1000"}) {
            for (String mode : MODES) {
                claims.addAll(compared ? claims(CompareRun.of(r, "compare-" + w + ".json", THRESHOLD), mode, w) : claims(samples, mode, w));
            }
        }
        comparisons(r, settings, out);
        Claim.report(claims, "uring / et", out);
        if (compared) {
            CompareRun echo50 = CompareRun.of(r, "compare-echo-50.json", THRESHOLD);
            CompareRun.forkPrecision(out, echo50.forks(), echo50.roundsPerFork());
        }
        out.put("conclusions", conclusions(samples, out.values.get("claims_summary")));
        out.put("answer", answer(samples, compared ? CompareRun.of(r, "compare-echo-50.json", THRESHOLD) : null, claims, THRESHOLD.value()));
    }

    /** Part 1's tables, one compare per workload, or a line saying the results predate it. */
    private static void comparisons(Results r, Map<String, String> settings, Report out) {
        if (!r.has("compare-echo-50.json")) {
            out.put("compare_tables", "These results predate the paired comparison (`echo-bench compare`): the claims below come"
                    + " from the sequential rounds of the tables that follow, paired by round index.");
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (String w : WORKLOADS) {
            if (!r.has("compare-" + w + ".json")) continue;
            sb.append(sb.length() == 0 ? "" : "\n\n").append(CompareRun.of(r, "compare-" + w + ".json", THRESHOLD).section(w));
        }
        out.put("compare_tables", "Every server of a workload ran in one `echo-bench compare` (" + settings.get("cmp_warmup")
                + " of load per server first), and each ratio is the median of the per-round ratios to `et`, with its"
                + " 95% interval: a verdict says a difference only when the whole interval lies beyond the report's threshold (" + THRESHOLD.declared() + ").\n\n" + sb
                + "\n\nThe tables 3.1 to 3.4 count the mechanism (syscalls, SQEs, completions, context switches), one server at a"
                + " time; their rates are not the comparison.");
    }

    /** At {@code w}: one uring mode against et from the compare run, rate and CPU per request (the whole process). */
    private static List<Claim> claims(CompareRun run, String mode, String w) {
        String at = w.substring("echo-".length()) + " connections, " + mode.substring("uring-".length()) + ": ";
        List<Claim> claims = new ArrayList<>();
        ForkInterval rate = run.has(mode) ? run.forkRatio(mode, "et", CompareRun.RATE) : null;
        ForkInterval cpu = run.has(mode) ? run.forkRatio(mode, "et", CompareRun.CPU) : null;
        if (rate != null) claims.add(Claim.atLeast(at + "req/s at least et's", rate, run.rounds(mode, "et"), 1.0));
        if (cpu != null) claims.add(Claim.atMost(at + "JVM CPU µs/req at most et's", cpu, run.rounds(mode, "et"), 1.0));
        return claims;
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
    private static List<Claim> claims(Csv samples, String mode, String w) {
        String at = w.substring("echo-".length()) + " connections, " + mode.substring("uring-".length()) + ": ";
        int rounds = samples.numbers("requests_per_s", "server", "et", "workload", w).length;
        return List.of(
                Claim.atLeast(at + "req/s at least et's", Claim.paired(byRound(samples, mode, w, "requests_per_s"),
                        byRound(samples, "et", w, "requests_per_s")), rounds, 1.0),
                Claim.atMost(at + "loop thread CPU µs/req at most et's", Claim.paired(loopCpuByRound(samples, mode, w),
                        loopCpuByRound(samples, "et", w)), rounds, 1.0),
                Claim.atMost(at + "JVM CPU µs/req at most et's", Claim.paired(byRound(samples, mode, w, "server_cpu_us_per_req"),
                        byRound(samples, "et", w, "server_cpu_us_per_req")), rounds, 1.0));
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

    private static String conclusions(Csv samples, String claimsSummary) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "- **Syscalls.** At 50 connections `et` makes %s syscalls per request, `uring` %s (basic), "
                        + "%s (multishot), %s (bufring): one `io_uring_enter` per batch, %s completions each (bufring, 1000 connections).",
                Md.f2(median(samples, "et", "echo-50", "syscalls_per_req")),
                Md.f2(median(samples, "uring-basic", "echo-50", "syscalls_per_req")),
                Md.f2(median(samples, "uring-multishot", "echo-50", "syscalls_per_req")),
                Md.f2(median(samples, "uring-bufring", "echo-50", "syscalls_per_req")),
                Md.f0(median(samples, "uring-bufring", "echo-1000", "completions_per_enter"))));
        lines.add(String.format(Locale.ROOT, "- **CPU.** The loop thread's CPU per request at 50 connections: `et` %s µs "
                        + "(%s of it in user space), bufring %s µs (%s in user space).",
                Md.f2(loopCpu(samples, "et", "echo-50")), Md.f2(median(samples, "et", "echo-50", "loop_user_us_per_req")),
                Md.f2(loopCpu(samples, "uring-bufring", "echo-50")), Md.f2(median(samples, "uring-bufring", "echo-50", "loop_user_us_per_req"))));
        lines.add(String.format(Locale.ROOT, "- **One connection.** No batch to share: `uring` makes %s enters per request against `et`'s %s "
                        + "syscalls, and its loop spends %s µs per request against %s.",
                Md.f2(median(samples, "uring-bufring", "echo-1", "syscalls_per_req")), Md.f2(median(samples, "et", "echo-1", "syscalls_per_req")),
                Md.f2(loopCpu(samples, "uring-bufring", "echo-1")), Md.f2(loopCpu(samples, "et", "echo-1"))));
        lines.add("- **The claim** (table 3.5): " + claimsSummary + ".");
        return String.join("\n", lines);
    }

    /** bufring's CPU per request over basic's against the report's threshold, in words. */
    static String modesVerdict(Interval modes, double threshold) {
        return Verdicts.moreOrLess(modes, threshold, "CPU");
    }

    /** {@code bufring's system time is 1.01× et's (6.51 against 6.43 µs per request)}. */
    private static String comparison(String who, String whom, String what, double a, double b) {
        return String.format(Locale.ROOT, "%s %s is %s× %s (%s against %s µs per request)", who, what, Md.f2(a / b), whom, Md.f2(a), Md.f2(b));
    }

    private static String answer(Csv samples, CompareRun compare50, List<Claim> claims, double threshold) {
        List<String> matching = new ArrayList<>(), failing = new ArrayList<>();
        for (String mode : MODES) {
            List<Claim> ofMode = new ArrayList<>();
            for (Claim c : claims) {
                if (c.statement().contains(", " + mode.substring("uring-".length()) + ": ")) ofMode.add(c);
            }
            ClaimVerdict v = Verdicts.all(ofMode);
            if (v == ClaimVerdict.HOLDS) matching.add(mode.substring("uring-".length()));
            if (v == ClaimVerdict.FAILS) failing.add(mode.substring("uring-".length()));
        }
        String verdict = (matching.isEmpty()
                ? "On this kernel no io_uring mode was shown to match `et` in every comparison at 50 and 1000 connections"
                : "On this kernel " + String.join(" and ", matching) + " matched `et` in every comparison at 50 and 1000 connections")
                + (failing.isEmpty() ? "; no mode was shown to fall short in any of them."
                        : "; " + String.join(" and ", failing) + " fell short in at least one (table 3.5 names them).")
                + " The other comparisons are undecided at this run's precision.";
        double syscalls = median(samples, "uring-bufring", "echo-50", "syscalls_per_req") / median(samples, "et", "echo-50", "syscalls_per_req");
        double kernel = median(samples, "uring-bufring", "echo-50", "loop_sys_us_per_req") / median(samples, "et", "echo-50", "loop_sys_us_per_req");
        // between the modes: from the paired comparison where there is one (the whole process), else the loop thread's rounds
        Interval paired = compare50 == null ? null : compare50.ratio("uring-bufring", "uring-basic", CompareRun.CPU);
        Interval modes = paired != null ? paired
                : Claim.ratio(loopCpuByRound(samples, "uring-bufring", "echo-50"), loopCpuByRound(samples, "uring-basic", "echo-50"));
        String spender = paired != null ? "bufring spends " : "bufring's loop spends ";
        double single = loopCpu(samples, "uring-bufring", "echo-1") / loopCpu(samples, "et", "echo-1");
        return verdict + " What io_uring changes is batching: one `io_uring_enter` carries a batch of sends and brings back a"
                + " batch of completions, which takes the syscalls per request at 50 connections to " + Md.f0(syscalls * 100)
                + "% of `et`'s. The kernel's time per request moves " + (Math.abs(kernel - 1) < Math.abs(syscalls - 1) ? "less" : "no less")
                + " (bufring's loop spends " + Md.f2(kernel) + "× `et`'s system time): the TCP work is the same, and the ring does its"
                + " own bookkeeping where the syscall entries were. Between the modes, " + spender + Md.f2(modes.estimate())
                + "× basic's CPU per request at 50 connections, 95% interval [" + Md.edge(modes, modes.low(), 1 - threshold, 1 + threshold)
                + ", " + Md.edge(modes, modes.high(), 1 - threshold, 1 + threshold) + "]: " + modesVerdict(modes, threshold)
                + ". With one connection there is no batch, and the ring's loop spends " + Md.f2(single) + "× `et`'s CPU per request.";
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
