package niolab.reports;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * exp-uring: the uring server in each mode beside et (and netty-uring when it was built), on
 * keep-alive echo at 1, 50 and 1000 connections and pipelined /ping. Medians over the rounds of
 * {@code samples.csv}; the speed target (the best mode against et at 50 and 1000 connections)
 * judged against the run's own noise.
 */
public final class UringExperiment implements Experiment {
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
        double noise = noise(samples, servers);
        out.put("noise", Md.f0(noise * 100) + "%");
        out.put("warmup", settings.get("warmup"));
        out.put("duration", settings.get("duration"));
        out.put("rounds", settings.get("rounds"));
        out.put("kernel", r.text("kernel.txt").trim());
        out.put("uring_support", r.text("uring-support.txt").trim().replaceFirst("^io_uring on Linux \\S+: ", ""));
        String notes = r.text("notes.txt").trim();
        out.put("notes", notes.isEmpty() ? "" : " (" + notes + ".)");

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

        List<Verdict> verdicts = new ArrayList<>();
        for (String w : new String[] {"echo-50", "echo-1000"}) verdicts.addAll(target(samples, w, noise));
        List<List<String>> rows = new ArrayList<>();
        for (Verdict v : verdicts) rows.add(v.row());
        out.put("targets_table", Md.table(List.of("target", "uring", "et", "uring / et", "on this run"), rows));
        out.put("conclusions", conclusions(samples, verdicts));
        out.put("answer", answer(samples, verdicts, noise));
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

    /** Median over servers and workloads of the rounds' relative spread in req/s. */
    private static double noise(Csv samples, List<String> servers) {
        List<Double> spreads = new ArrayList<>();
        for (String s : servers) {
            for (String w : WORKLOADS) spreads.add(Stats.relativeSpread(samples.numbers("requests_per_s", "server", s, "workload", w)));
        }
        double[] v = new double[spreads.size()];
        for (int i = 0; i < v.length; i++) v[i] = spreads.get(i);
        return Stats.median(v);
    }

    /** A measured ratio against its bound; a miss by less than the noise is a tie. */
    private record Verdict(String target, double uring, double et, boolean higherIsBetter, double noise) {
        double ratio() {
            return uring / et;
        }

        boolean met() {
            return higherIsBetter ? ratio() >= 1 : ratio() <= 1;
        }

        boolean tie() {
            return !met() && Math.abs(ratio() - 1) < noise;
        }

        String outcome() {
            return met() ? "met" : tie() ? "missed, within the noise" : "missed";
        }

        List<String> row() {
            // req/s in whole requests, CPU in hundredths of a µs
            return higherIsBetter ? List.of(target, Md.f0(uring), Md.f0(et), Md.f2(ratio()), outcome())
                    : List.of(target, Md.f2(uring), Md.f2(et), Md.f2(ratio()), outcome());
        }
    }

    /** At {@code w}: the uring mode with the most req/s, against et, in req/s and both CPU measures. */
    private static List<Verdict> target(Csv samples, String w, double noise) {
        String best = bestMode(samples, w);
        String at = w.substring("echo-".length()) + " connections, " + best.substring("uring-".length()) + ": ";
        return List.of(
                new Verdict(at + "req/s at least et's", median(samples, best, w, "requests_per_s"),
                        median(samples, "et", w, "requests_per_s"), true, noise),
                new Verdict(at + "loop thread CPU µs/req at most et's", loopCpu(samples, best, w), loopCpu(samples, "et", w), false, noise),
                new Verdict(at + "JVM CPU µs/req at most et's", median(samples, best, w, "server_cpu_us_per_req"),
                        median(samples, "et", w, "server_cpu_us_per_req"), false, noise));
    }

    private static String bestMode(Csv samples, String w) {
        double[] qps = new double[MODES.length];
        for (int i = 0; i < MODES.length; i++) qps[i] = median(samples, MODES[i], w, "requests_per_s");
        return MODES[Stats.best(qps, true)];
    }

    private static double loopCpu(Csv samples, String server, String w) {
        return median(samples, server, w, "loop_user_us_per_req") + median(samples, server, w, "loop_sys_us_per_req");
    }

    private static String conclusions(Csv samples, List<Verdict> verdicts) {
        int met = 0, ties = 0;
        for (Verdict v : verdicts) {
            if (v.met()) met++;
            if (v.tie()) ties++;
        }
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
        lines.add(String.format(Locale.ROOT, "- **The target** (table 3.5): %d of %d comparisons met, %d more missed by less than the noise.",
                met, verdicts.size(), ties));
        return String.join("\n", lines);
    }

    /** {@code bufring's system time is 1.01× et's (6.51 against 6.43 µs per request)}. */
    private static String comparison(String who, String whom, String what, double a, double b) {
        return String.format(Locale.ROOT, "%s %s is %s× %s (%s against %s µs per request)", who, what, Md.f2(a / b), whom, Md.f2(a), Md.f2(b));
    }

    private static String answer(Csv samples, List<Verdict> verdicts, double noise) {
        boolean allMetOrTied = true;
        for (Verdict v : verdicts) allMetOrTied &= v.met() || v.tie();
        String verdict = allMetOrTied
                ? "On this kernel the best io_uring mode at least matches `et` at 50 and 1000 connections, in requests per second"
                        + " and in CPU per request (or misses by less than this run's noise of " + Md.f0(noise * 100) + "%)."
                : "On this kernel the best io_uring mode does not match `et` everywhere at 50 and 1000 connections: table 3.5"
                        + " names the misses, and the loop thread's user and system time (tables 3.2, 3.3) show where the time goes.";
        double syscalls = median(samples, "uring-bufring", "echo-50", "syscalls_per_req") / median(samples, "et", "echo-50", "syscalls_per_req");
        double kernel = median(samples, "uring-bufring", "echo-50", "loop_sys_us_per_req") / median(samples, "et", "echo-50", "loop_sys_us_per_req");
        double modes = loopCpu(samples, "uring-bufring", "echo-50") / loopCpu(samples, "uring-basic", "echo-50");
        double single = loopCpu(samples, "uring-bufring", "echo-1") / loopCpu(samples, "et", "echo-1");
        return verdict + " What io_uring changes is batching: one `io_uring_enter` carries a batch of sends and brings back a"
                + " batch of completions, which takes the syscalls per request at 50 connections to " + Md.f0(syscalls * 100)
                + "% of `et`'s. The kernel's time per request moves much less (bufring's loop spends " + Md.f2(kernel)
                + "× `et`'s system time): the TCP work is the same, and the ring does its own bookkeeping where the"
                + " syscall entries were. Between"
                + " the modes, bufring's loop spends " + Md.f2(modes) + "× basic's CPU per request at 50 connections"
                + (Math.abs(modes - 1) < noise ? " (a tie in this run)" : "")
                + ": multishot recv and buffer rings pay first in SQEs and in memory, since an idle connection holds no buffer."
                + " With one connection there is no batch, and the ring's loop spends " + Md.f2(single) + "× `et`'s CPU per request.";
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
