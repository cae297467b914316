package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
        double noise = noise(samples, servers);
        out.put("noise", Md.f0(noise * 100) + "%");
        claims(summary, servers, noise, out);
        redis(r, summary, servers, out);
        out.put("servers", String.join(", ", servers));
        // wrk states its run's length on its first line: "Running 5s test @ ..."
        out.put("duration", r.text("raw/wrk-" + servers[0] + "-keepalive-r1.txt").replaceAll("(?s)^Running (\\S+) test.*", "$1"));
        out.put("rounds", Integer.toString(samples.numbers("requests_per_s", "server", "lt", "mode", "keepalive", "tool", "wrk").length));
    }

    /** Median over servers and modes of wrk's (max − min) / median across rounds: the run-to-run noise. */
    private static double noise(Csv samples, String[] servers) {
        double[] spreads = new double[servers.length * MODES.length];
        int k = 0;
        for (String s : servers) {
            for (String m : MODES) {
                spreads[k++] = Stats.relativeSpread(samples.numbers("requests_per_s", "server", s, "mode", m, "tool", "wrk"));
            }
        }
        return Stats.median(spreads);
    }

    /**
     * The lab's claims: its loops are no slower and no costlier than Netty's transport under the
     * same responder (lt with netty-nio, et with netty-epoll), and its client reads within 10% of wrk.
     */
    private static void claims(Csv summary, String[] servers, double noise, Report out) {
        List<Claim> claims = new ArrayList<>();
        claims.add(new Claim("pipelined depth 16: lt serves at least netty-nio's req/s", cell(summary, "lt", "pipeline", "wrk_requests_over_netty"), 1.0, true));
        claims.add(new Claim("pipelined depth 16: et serves at least netty-epoll's req/s", cell(summary, "et", "pipeline", "wrk_requests_over_netty"), 1.0, true));
        claims.add(new Claim("keep-alive: lt spends at most netty-nio's server CPU per request", cell(summary, "lt", "keepalive", "cpu_per_req_over_netty"), 1.0, false));
        claims.add(new Claim("keep-alive: et spends at most netty-epoll's server CPU per request", cell(summary, "et", "keepalive", "cpu_per_req_over_netty"), 1.0, false));
        int rulerHeld = 0;
        for (String s : servers) {
            Claim c = new Claim("keep-alive: echo-bench reaches at least 0.9 of wrk's req/s against " + s,
                    cell(summary, s, "keepalive", "echo_bench_over_wrk"), 0.9, true);
            claims.add(c);
            if (c.holds()) rulerHeld++;
        }
        Claim.report(claims, "measured ratio", noise, out);
        out.put("ruler_held", rulerHeld + " of " + servers.length);
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
            out.put("best_" + m[0], bestName + " (" + Md.f0(best) + " req/s, " + Md.f2(best / ceiling) + " of redis)");
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
