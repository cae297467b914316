package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * exp-http: the /ping comparison of {@code make bench-http} (lt, et, mp, netty-nio,
 * netty-epoll; wrk and echo-bench; keep-alive, Connection: close, pipelined) beside
 * redis-benchmark PING as the per-core ceiling, with the targets checked from the data.
 */
public final class HttpExperiment implements Experiment {
    private static final String[] SERVERS = {"lt", "et", "mp", "netty-nio", "netty-epoll"};
    private static final String[] MODES = {"keepalive", "close", "pipeline"};

    @Override
    public String name() {
        return "http";
    }

    @Override
    public void generate(Results r, Report out) {
        Csv summary = r.csv("summary.csv");
        Csv samples = r.csv("samples.csv");
        for (String mode : MODES) {
            List<List<String>> rows = new ArrayList<>();
            for (String s : SERVERS) {
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
        double noise = noise(samples);
        out.put("noise", Md.f0(noise * 100) + "%");
        targets(summary, noise, out);
        redis(r, summary, out);
        out.put("rounds", Integer.toString(samples.numbers("requests_per_s", "server", "lt", "mode", "keepalive", "tool", "wrk").length));
    }

    /** The targets, each a line that says met or missed with the figures. */
    /** Median over servers and modes of wrk's (max − min) / median across rounds: the run-to-run noise. */
    private static double noise(Csv samples) {
        double[] spreads = new double[SERVERS.length * MODES.length];
        int k = 0;
        for (String s : SERVERS) {
            for (String m : MODES) {
                spreads[k++] = Stats.relativeSpread(samples.numbers("requests_per_s", "server", s, "mode", m, "tool", "wrk"));
            }
        }
        return Stats.median(spreads);
    }

    private static void targets(Csv summary, double noise, Report out) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(target("pipelined depth 16: lt req/s ≥ netty-nio", num(summary.row("server", "lt", "mode", "pipeline"), "wrk_requests_over_netty"), 1.0, true, noise));
        rows.add(target("pipelined depth 16: et req/s ≥ netty-epoll", num(summary.row("server", "et", "mode", "pipeline"), "wrk_requests_over_netty"), 1.0, true, noise));
        rows.add(target("keep-alive: lt CPU/req ≤ netty-nio", num(summary.row("server", "lt", "mode", "keepalive"), "cpu_per_req_over_netty"), 1.0, false, noise));
        rows.add(target("keep-alive: et CPU/req ≤ netty-epoll", num(summary.row("server", "et", "mode", "keepalive"), "cpu_per_req_over_netty"), 1.0, false, noise));
        int met = 0;
        for (String s : SERVERS) {
            List<String> t = target("keep-alive: echo-bench ≥ 0.9 × wrk against " + s,
                    num(summary.row("server", s, "mode", "keepalive"), "echo_bench_over_wrk"), 0.9, true, noise);
            rows.add(t);
            if (t.get(2).equals("met")) met++;
        }
        out.put("targets_table", Md.table(List.of("target", "ratio", "verdict"), rows));
        int close = 0;
        for (List<String> row : rows) {
            if (row.get(2).startsWith("missed, within")) close++;
        }
        out.put("targets_close", Integer.toString(close));
        int total = 0, metAll = 0;
        for (List<String> row : rows) {
            total++;
            if (row.get(2).equals("met")) metAll++;
        }
        out.put("targets_met", metAll + " of " + total);
        out.put("ruler_met", met + " of " + SERVERS.length);
    }

    /** A target's row; a miss by less than the run-to-run noise says so, since a rerun may flip it. */
    private static List<String> target(String what, double ratio, double bound, boolean atLeast, double noise) {
        boolean ok = atLeast ? ratio >= bound : ratio <= bound;
        boolean close = Math.abs(ratio - bound) / bound < noise;
        return List.of(what, Md.f2(ratio), ok ? "met" : close ? "missed, within the noise" : "missed");
    }

    /** redis-benchmark PING on the same core: the ceiling, and how close each server comes. */
    private static void redis(Results r, Csv summary, Report out) {
        Csv redis = r.csv("redis.csv");
        out.put("redis_version", r.text("redis-version.txt").trim());
        List<List<String>> rows = new ArrayList<>();
        String[][] modes = {{"keepalive", "keep-alive"}, {"pipeline", "pipelined depth 16"}};
        for (String[] m : modes) {
            double ceiling = Stats.median(redis.numbers("requests_per_s", "mode", m[0], "test", "PING_INLINE"));
            double best = 0;
            String bestName = "";
            for (String s : SERVERS) {
                double w = num(summary.row("server", s, "mode", m[0]), "wrk_requests_per_s");
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
