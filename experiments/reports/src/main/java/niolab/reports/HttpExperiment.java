package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import niolab.common.ServerCatalog;
import niolab.common.results.BenchComparison;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;

/**
 * exp-http: the /ping comparison of lt, et, mp, the Netty peers and netty-http (wrk and
 * echo-bench; keep-alive, Connection: close, pipelined) beside redis-benchmark PING as the
 * per-core ceiling, and the lab's claims about its servers and its client checked on the run.
 * One {@code echo-bench compare} per mode and load generator (compare-LOAD-MODE.json: paired
 * slices).
 */
public final class HttpExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.05, "a load generator or a server is worth preferring for 5% of rate; the claims' 0.9-1.1 band is wider still");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    /** The servers exp-http can run, in table order; a report shows those its run measured. */
    private static final String[] KNOWN = ServerCatalog.selection("http").toArray(new String[0]);
    private static final String[] MODES = {"keepalive", "close", "pipeline"};

    @Override
    public String name() {
        return "http";
    }

    /**
     * Per mode and load generator one {@code echo-bench compare} of every server (lt the
     * baseline), ratios paired by round with their intervals.
     */
    @Override
    public void generate(Results r, Report out) {
        CompareRun[] wrk = new CompareRun[MODES.length], eb = new CompareRun[MODES.length];
        for (int m = 0; m < MODES.length; m++) {
            wrk[m] = CompareRun.of(r, compareFile("wrk", MODES[m]), THRESHOLD);
            eb[m] = CompareRun.of(r, compareFile("echo-bench", MODES[m]), THRESHOLD);
        }
        List<String> found = new ArrayList<>();
        for (String s : KNOWN) {
            if (wrk[0].has(s)) found.add(s);
        }
        String[] servers = found.toArray(new String[0]);
        String base = wrk[0].baseline();
        double[][] cpu = new double[MODES.length][servers.length], rate = new double[MODES.length][servers.length];
        for (int m = 0; m < MODES.length; m++) {
            List<List<String>> rows = new ArrayList<>();
            for (int i = 0; i < servers.length; i++) {
                String s = servers[i];
                BenchComparison.ServerSummary w = wrk[m].summary(s), e = eb[m].summary(s);
                rate[m][i] = orNaN(w.medianRate());
                cpu[m][i] = orNaN(w.medianCpuUsPerRequest());
                String peer = peer(s);
                rows.add(List.of(s, Md.f0(rate[m][i]), w.minRate() == null ? "–" : Md.f0(w.minRate()) + " – " + Md.f0(w.maxRate()),
                        s.equals(base) ? "baseline" : wrk[m].words(wrk[m].ratio(s, base, CompareRun.RATE), Comparison.Quantity.RATE),
                        Md.f0(orNaN(e.medianRate())), Md.f2(orNaN(e.medianRate()) / rate[m][i]), Md.f2(cpu[m][i]),
                        peer == null || !wrk[m].has(peer) ? "–" : wrk[m].words(wrk[m].ratio(s, peer, CompareRun.RATE), Comparison.Quantity.RATE),
                        peer == null || !wrk[m].has(peer) ? "–" : wrk[m].words(wrk[m].ratio(s, peer, CompareRun.CPU), Comparison.Quantity.COST),
                        w.errors() + " / " + e.errors()));
            }
            out.put(MODES[m] + "_table", "**wrk** " + wrk[m].design() + "; **echo-bench** " + eb[m].design() + ":\n\n"
                    + Md.table(List.of("server", "wrk req/s (median)", "wrk range over slices", "wrk req/s / " + base + ", 95% interval",
                    "echo-bench req/s (median)", "echo-bench / wrk (medians)", "server CPU µs/req (wrk)", "req/s / Netty peer (wrk)",
                    "CPU/req / Netty peer (wrk)", "errors wrk / echo-bench"), rows));
        }
        List<Claim> claims = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        List<String[]> pairs = new ArrayList<>();
        for (String s : KNOWN) {
            if (peer(s) != null) pairs.add(new String[] {s, peer(s)});
        }
        for (String[] p : pairs) {
            claim(claims, leftOut, wrk[2], "pipelined depth 16: " + p[0] + " serves at least " + p[1] + "'s req/s", p, CompareRun.RATE);
        }
        for (String[] p : pairs) {
            claim(claims, leftOut, wrk[0], "keep-alive: " + p[0] + " spends at most " + p[1] + "'s server CPU per request", p, CompareRun.CPU);
        }
        int rulerHeld = 0;
        for (String s : servers) {
            // rounds k of the two keep-alive compares: paired by round number, not in time (the runs follow each other)
            double[][] ebOverWrk = eb[0].ratesAcross(wrk[0], s);
            int n = ebOverWrk[0].length;
            String statement = "keep-alive: echo-bench's req/s within 10% of wrk's (0.9 to 1.1×) against " + s;
            if (n < MedianInterval.MIN_ROUNDS) {
                leftOut.add(statement);
                continue;
            }
            Claim c = Claim.within(statement, CompareRun.forkLevel(ebOverWrk), n, 0.9, 1.1);
            claims.add(c);
            if (c.verdict() == ClaimVerdict.HOLDS) rulerHeld++;
        }
        Claim.report(claims, "measured ratio", out);
        CompareRun.forkPrecision(out, wrk[0].forks(), wrk[0].json.config().rounds());
        out.put("claims_left_out", leftOut.isEmpty() ? "" : "\n\nLeft out, with fewer than " + MedianInterval.MIN_ROUNDS
                + " rounds in which both sides served (no interval): " + String.join("; ", leftOut) + ".");
        out.put("ruler_held", rulerHeld + " of " + servers.length);
        out.put("ruler_design", "Both are single-threaded closed-loop clients on one core; echo-bench checks every response's"
                + " status and body. The two keep-alive compares run one after the other, so the ratio pairs round k of echo-bench's"
                + " run with round k of wrk's: paired by round number, not in time, its interval carries the machine's drift between"
                + " the two runs as well");
        putRanges(servers, cpu, rate, out);
        redis(r, servers, rate, new CompareRun[] {wrk[0], wrk[2]}, out);
        out.put("servers", String.join(", ", servers));
        out.put("rounds", Integer.toString(wrk[0].json.config().rounds()));
        out.put("design_rounds", (wrk[0].forks() > 1 ? "every server started afresh in each fork" : "all servers up at once") + "; per mode and load generator one `echo-bench compare` of every server ("
                + base + " first, the baseline of the ratios): " + wrk[0].design() + ", after " + Md.f2(wrk[0].json.config().warmupS())
                + " s of load on each server first (not counted). Within a round every server gets the same slice, so the"
                + " machine's drift reaches them alike, and a ratio is " + wrk[0].ratioMethod() + "; a direction is named only where the interval lies wholly beyond the report's threshold (" + THRESHOLD.declared() + "), \"the same\" where it lies wholly within it. Tables show each"
                + " server's median slice");
        out.put("steps", "`make exp-http` (runs `experiments/scripts/exp-http.sh`, the compares with their results in"
                + " `experiments/results/http/`, then redis; `ROUNDS=`, `SLICE=`, `WARMUP=` and `SERVERS=` change the runs)");
    }

    /** A claim on the ratio of {@code pair[0]} to {@code pair[1]} in one compare run, when both ran and enough rounds pair. */
    private static void claim(List<Claim> claims, List<String> leftOut, CompareRun run, String statement, String[] pair, int quantity) {
        if (!run.has(pair[0]) || !run.has(pair[1])) return;
        ForkInterval ratio = run.forkRatio(pair[0], pair[1], quantity);
        if (ratio == null) {
            leftOut.add(statement);
            return;
        }
        int n = run.rounds(pair[0], pair[1]);
        claims.add((quantity == CompareRun.RATE ? Claim.atLeast(statement, ratio, n, 1.0) : Claim.atMost(statement, ratio, n, 1.0))
                );
    }

    public static String compareFile(String load, String mode) {
        return "compare-" + load + "-" + mode + ".json";
    }

    /** The Netty peer under the same responder: lt's netty-nio, et's netty-epoll; null for the others. */
    private static String peer(String server) {
        String peer = ServerCatalog.has(server) ? ServerCatalog.server(server).nettyPeer() : "";
        return peer.isEmpty() ? null : peer;
    }

    private static double orNaN(Double v) {
        return v == null ? Double.NaN : v;
    }

    /** The ranges over servers of the medians of wrk's rate and server CPU per request, per mode ([mode][server]). */
    private static void putRanges(String[] servers, double[][] cpu, double[][] rate, Report out) {
        double[] closeOverKa = new double[servers.length];
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

    /**
     * {@code rate}: wrk's median rate per mode (MODES' order) and server; {@code runs}: the
     * keep-alive and pipelined wrk compares, whose intervals say whether the highest median is
     * ahead of every other server.
     */
    private static void redis(Results r, String[] servers, double[][] rate, CompareRun[] runs, Report out) {
        Csv redis = r.csv("redis.csv");
        out.put("redis_version", r.text("redis-version.txt").trim());
        List<List<String>> rows = new ArrayList<>();
        String[][] modes = {{"keepalive", "keep-alive"}, {"pipeline", "pipelined depth 16"}};
        for (String[] m : modes) {
            double ceiling = Stats.median(redis.numbers("requests_per_s", "mode", m[0], "test", "PING_INLINE"));
            double best = 0;
            String bestName = "";
            int mode = m[0].equals("keepalive") ? 0 : 2;
            for (int i = 0; i < servers.length; i++) {
                if (rate[mode][i] > best) {
                    best = rate[mode][i];
                    bestName = servers[i];
                }
            }
            rows.add(List.of(m[1], Md.f0(ceiling), Md.f0(Stats.median(redis.numbers("requests_per_s", "mode", m[0], "test", "PING_MBULK"))),
                    bestName + " " + Md.f0(best), Md.f2(best / ceiling)));
            out.put("redis_" + m[0], Md.f0(ceiling));
            out.put("best_" + m[0], bestName + " (" + Md.f0(best) + " req/s, " + Md.f2(best / ceiling) + "× redis's; medians of separate runs, no interval)"
                    + resolved(runs[mode == 0 ? 0 : 1], bestName, servers));
            out.put("redis_vs_best_" + m[0], best >= ceiling ? "at or below" : "above");
        }
        out.put("redis_table", Md.table(List.of("mode", "redis PING_INLINE req/s", "redis PING_MBULK req/s",
                "fastest /ping server (wrk)", "fastest / redis inline"), rows));
    }

    /** Whether {@code best}'s rate is ahead of every other server's beyond the paired interval, in words. */
    private static String resolved(CompareRun run, String best, String[] servers) {
        return Verdicts.highestMedian(Verdicts.ties(best, List.of(servers), s -> run.ratio(best, s, CompareRun.RATE), run.threshold));
    }
}
