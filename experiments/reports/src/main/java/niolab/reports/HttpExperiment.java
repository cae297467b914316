package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import niolab.common.stats.ClaimVerdict;

/**
 * exp-http: the /ping comparison of {@code make bench-http} (lt, et, mp, the Netty peers and
 * netty-http; wrk and echo-bench; keep-alive, Connection: close, pipelined) beside
 * redis-benchmark PING as the per-core ceiling, and the lab's claims about its servers and its
 * client checked on the run.
 */
public final class HttpExperiment implements Experiment {
    /** The servers bench-http can run, in table order; a report shows those its run measured. */
    private static final String[] KNOWN = {"lt", "et", "mp", "netty-nio", "netty-epoll", "netty-uring", "netty-http"};
    private static final String[] MODES = {"keepalive", "close", "pipeline"};

    @Override
    public String name() {
        return "http";
    }

    @Override
    public void generate(Results r, Report out) {
        Csv summary = r.csv("summary.csv");
        Csv samples = r.csv("samples.csv");
        String[] servers = measured(summary);
        for (String mode : MODES) {
            List<List<String>> rows = new ArrayList<>();
            for (String s : servers) {
                Map<String, String> row = summary.row("server", s, "mode", mode);
                double[] w = samples.numbers("requests_per_s", "server", s, "mode", mode, "tool", "wrk");
                rows.add(List.of(s, Md.f0(num(row, "wrk_requests_per_s")),
                        Md.f0(w[Stats.best(w, false)]) + " – " + Md.f0(w[Stats.best(w, true)]),
                        Md.f0(num(row, "echo_bench_requests_per_s")), Md.f2(num(row, "echo_bench_over_wrk")),
                        Md.f2(num(row, "server_cpu_us_per_req_wrk")), orDash(row.get("wrk_requests_over_netty")),
                        orDash(row.get("cpu_per_req_over_netty")),
                        row.get("wrk_errors") + " / " + row.get("echo_bench_errors")));
            }
            out.put(mode + "_table", Md.table(List.of("server", "wrk req/s (median)", "wrk range over rounds",
                    "echo-bench req/s", "echo-bench / wrk", "server CPU µs/req", "req/s vs Netty peer",
                    "CPU/req vs Netty peer", "errors wrk / echo-bench"), rows));
        }
        claims(samples, servers, out);
        cpuRanges(samples, servers, out);
        redis(r, summary, servers, out);
        out.put("servers", String.join(", ", servers));
        // wrk states its run's length on its first line: "Running 5s test @ ..."
        out.put("duration", r.text("raw/wrk-" + servers[0] + "-keepalive-r1.txt").replaceAll("(?s)^Running (\\S+) test.*", "$1"));
        out.put("rounds", Integer.toString(samples.numbers("requests_per_s", "server", "lt", "mode", "keepalive", "tool", "wrk").length));
    }

    /**
     * The lab's claims: its loops are no slower and no costlier than Netty's transport under the
     * same responder (lt with netty-nio, et with netty-epoll), and its client reads within 10% of
     * wrk, either way. Each ratio's interval comes from the rounds' ratios, paired by round.
     */
    static void claims(Csv samples, String[] servers, Report out) {
        List<Claim> claims = new ArrayList<>();
        String[][] pairs = {{"lt", "netty-nio"}, {"et", "netty-epoll"}};
        for (String[] p : pairs) {
            claims.add(Claim.atLeast("pipelined depth 16: " + p[0] + " serves at least " + p[1] + "'s req/s",
                    Claim.ratio(wrk(samples, p[0], "pipeline", "requests_per_s"), wrk(samples, p[1], "pipeline", "requests_per_s")),
                    rounds(samples, p[0]), 1.0));
        }
        for (String[] p : pairs) {
            claims.add(Claim.atMost("keep-alive: " + p[0] + " spends at most " + p[1] + "'s server CPU per request",
                    Claim.ratio(wrk(samples, p[0], "keepalive", "server_cpu_us_per_req"), wrk(samples, p[1], "keepalive", "server_cpu_us_per_req")),
                    rounds(samples, p[0]), 1.0));
        }
        int rulerHeld = 0;
        for (String s : servers) {
            Claim c = Claim.within("keep-alive: echo-bench's req/s within 10% of wrk's (0.9 to 1.1×) against " + s,
                    Claim.ratio(samples.numbers("requests_per_s", "server", s, "mode", "keepalive", "tool", "echo-bench"),
                            wrk(samples, s, "keepalive", "requests_per_s")), rounds(samples, s), 0.9, 1.1);
            claims.add(c);
            if (c.verdict() == ClaimVerdict.HOLDS) rulerHeld++;
        }
        Claim.report(claims, "measured ratio", out);
        out.put("ruler_held", rulerHeld + " of " + servers.length);
    }

    /** wrk's per-round figures of one server and mode, in round order. */
    private static double[] wrk(Csv samples, String server, String mode, String column) {
        return samples.numbers(column, "server", server, "mode", mode, "tool", "wrk");
    }

    private static int rounds(Csv samples, String server) {
        return wrk(samples, server, "keepalive", "requests_per_s").length;
    }

    /**
     * The ranges over servers that the analysis quotes: server CPU per request in each mode, the
     * rates with Connection: close against keep-alive, and what a closed connection costs in CPU
     * against a keep-alive request.
     */
    private static void cpuRanges(Csv samples, String[] servers, Report out) {
        double[][] cpu = new double[MODES.length][servers.length], rate = new double[MODES.length][servers.length];
        double[] closeOverKa = new double[servers.length];
        for (int m = 0; m < MODES.length; m++) {
            for (int i = 0; i < servers.length; i++) {
                cpu[m][i] = Stats.median(wrk(samples, servers[i], MODES[m], "server_cpu_us_per_req"));
                rate[m][i] = Stats.median(wrk(samples, servers[i], MODES[m], "requests_per_s"));
            }
        }
        for (int i = 0; i < servers.length; i++) closeOverKa[i] = cpu[1][i] / cpu[0][i];
        for (int m = 0; m < MODES.length; m++) {
            out.put(MODES[m] + "_cpu_range", range(cpu[m], 2) + " µs");
            out.put(MODES[m] + "_rate_range", range(rate[m], 0) + " req/s");
        }
        out.put("close_cpu_multiple", range(closeOverKa, 1) + "×");
    }

    /** "0.84 to 1.05" (min to max, with {@code decimals} decimals). */
    private static String range(double[] v, int decimals) {
        double lo = v[Stats.best(v, false)], hi = v[Stats.best(v, true)];
        return decimals == 0 ? Md.f0(lo) + " to " + Md.f0(hi) : decimals == 1 ? Md.f1(lo) + " to " + Md.f1(hi) : Md.f2(lo) + " to " + Md.f2(hi);
    }

    /** The servers of {@link #KNOWN} the run measured, in table order. */
    private static String[] measured(Csv summary) {
        List<String> servers = new ArrayList<>();
        for (String s : KNOWN) {
            if (summary.numbers("wrk_requests_per_s", "server", s).length > 0) servers.add(s);
        }
        return servers.toArray(new String[0]);
    }

    private static double cell(Csv summary, String server, String mode, String column) {
        return num(summary.row("server", server, "mode", mode), column);
    }

    /** redis-benchmark PING on the same core: the ceiling, and how close each server comes. */
    private static void redis(Results r, Csv summary, String[] servers, Report out) {
        Csv redis = r.csv("redis.csv");
        out.put("redis_version", r.text("redis-version.txt").trim());
        List<List<String>> rows = new ArrayList<>();
        String[][] modes = {{"keepalive", "keep-alive"}, {"pipeline", "pipelined depth 16"}};
        for (String[] m : modes) {
            double ceiling = Stats.median(redis.numbers("requests_per_s", "mode", m[0], "test", "PING_INLINE"));
            double best = 0;
            String bestName = "";
            for (String s : servers) {
                double w = cell(summary, s, m[0], "wrk_requests_per_s");
                if (w > best) {
                    best = w;
                    bestName = s;
                }
            }
            rows.add(List.of(m[1], Md.f0(ceiling), Md.f0(Stats.median(redis.numbers("requests_per_s", "mode", m[0], "test", "PING_MBULK"))),
                    bestName + " " + Md.f0(best), Md.f2(best / ceiling)));
            out.put("redis_" + m[0], Md.f0(ceiling));
            out.put("best_" + m[0], bestName + " (" + Md.f0(best) + " req/s, " + Md.f2(best / ceiling) + "× redis's)");
            out.put("redis_vs_best_" + m[0], best >= ceiling ? "at or below" : "above");
        }
        out.put("redis_table", Md.table(List.of("mode", "redis PING_INLINE req/s", "redis PING_MBULK req/s",
                "fastest /ping server (wrk)", "fastest / redis inline"), rows));
    }

    private static double num(Map<String, String> row, String column) {
        return Csv.number(row.get(column));
    }

    private static String orDash(String v) {
        return v == null || v.isEmpty() ? "–" : v;
    }
}
