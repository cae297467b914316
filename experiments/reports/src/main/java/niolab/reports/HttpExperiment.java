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
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class HttpExperiment implements Experiment {
    /** The ruler's claim, declared before any run: echo-bench's keep-alive rate within this fraction of wrk's, either way. */
    static final double RULER = 0.1;
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05, "a load generator or a server is worth preferring for {size} of rate; the claims' "
            + Md.f1(1 - RULER) + "-" + Md.f1(1 + RULER) + " band is wider still");

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
     * The run: per mode (MODES' order) and load generator one {@code echo-bench compare} of every
     * server, lt the baseline; redis's rates per redis mode (keep-alive, pipelined) and test.
     */
    record Data(CompareRun[] wrk, CompareRun[] eb, double[][] redisInline, double[][] redisMbulk, String redisVersion) {
    }

    /** One server's row in one mode: medians, wrk's ratios against the baseline and the Netty peer. */
    record Row(String server, double rate, Double minRate, Double maxRate, double ebRate, double cpu, Interval overBase,
            Interval overPeerRate, Interval overPeerCpu, boolean hasPeer, long wrkErrors, long ebErrors) {
    }

    /** redis in one mode: its ceiling (median inline PING), its multi-bulk median, the highest /ping median and its ties. */
    record Redis(String mode, String label, double ceiling, double mbulk, String best, double bestRate, List<String> ties) {
    }

    /**
     * What the run found: the servers measured, per mode their rows, the claims (and those left
     * out for too few rounds), how many servers the ruler held against, the ranges per mode
     * ([mode][server]) and redis beside the highest medians.
     */
    record Findings(CompareRun[] wrk, CompareRun[] eb, List<String> servers, String base, List<List<Row>> rows, List<Claim> claims,
            List<String> leftOut, int rulerHeld, double[][] cpu, double[][] rate, double[] closeOverKa, List<Redis> redis,
            String redisVersion) {
    }

    private static final String[][] REDIS_MODES = {{"keepalive", "keep-alive"}, {"pipeline", "pipelined depth 16"}};

    static Data load(Results r) {
        CompareRun[] wrk = new CompareRun[MODES.length], eb = new CompareRun[MODES.length];
        for (int m = 0; m < MODES.length; m++) {
            wrk[m] = CompareRun.of(r, compareFile("wrk", MODES[m]), THRESHOLD);
            eb[m] = CompareRun.of(r, compareFile("echo-bench", MODES[m]), THRESHOLD);
        }
        Csv redis = r.csv("redis.csv");
        double[][] inline = new double[REDIS_MODES.length][], mbulk = new double[REDIS_MODES.length][];
        for (int m = 0; m < REDIS_MODES.length; m++) {
            inline[m] = redis.numbers("requests_per_s", "mode", REDIS_MODES[m][0], "test", "PING_INLINE");
            mbulk[m] = redis.numbers("requests_per_s", "mode", REDIS_MODES[m][0], "test", "PING_MBULK");
        }
        return new Data(wrk, eb, inline, mbulk, r.text("redis-version.txt").trim());
    }

    static Findings analyse(Data d) {
        CompareRun[] wrk = d.wrk, eb = d.eb;
        List<String> servers = new ArrayList<>();
        for (String s : KNOWN) {
            if (wrk[0].has(s)) servers.add(s);
        }
        String base = wrk[0].baseline();
        double[][] cpu = new double[MODES.length][servers.size()], rate = new double[MODES.length][servers.size()];
        List<List<Row>> rows = new ArrayList<>();
        for (int m = 0; m < MODES.length; m++) {
            List<Row> modeRows = new ArrayList<>();
            for (int i = 0; i < servers.size(); i++) {
                String s = servers.get(i);
                BenchComparison.ServerSummary w = wrk[m].summary(s), e = eb[m].summary(s);
                rate[m][i] = orNaN(w.medianRate());
                cpu[m][i] = orNaN(w.medianCpuUsPerRequest());
                String peer = peer(s);
                boolean hasPeer = peer != null && wrk[m].has(peer);
                modeRows.add(new Row(s, rate[m][i], w.minRate(), w.maxRate(), orNaN(e.medianRate()), cpu[m][i],
                        s.equals(base) ? null : wrk[m].ratio(s, base, CompareRun.RATE),
                        hasPeer ? wrk[m].ratio(s, peer, CompareRun.RATE) : null, hasPeer ? wrk[m].ratio(s, peer, CompareRun.CPU) : null,
                        hasPeer, w.errors(), e.errors()));
            }
            rows.add(modeRows);
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
            String statement = "keep-alive: echo-bench's req/s within " + Md.f0(RULER * 100) + "% of wrk's (" + Md.f1(1 - RULER) + " to "
                    + Md.f1(1 + RULER) + "×) against " + s;
            if (n < MedianInterval.MIN_ROUNDS) {
                leftOut.add(statement);
                continue;
            }
            Claim c = Claim.within(statement, CompareRun.forkLevel(ebOverWrk), n, 1 - RULER, 1 + RULER);
            claims.add(c);
            if (c.verdict() == ClaimVerdict.HOLDS) rulerHeld++;
        }
        double[] closeOverKa = new double[servers.size()];
        for (int i = 0; i < closeOverKa.length; i++) closeOverKa[i] = cpu[1][i] / cpu[0][i];
        List<Redis> redis = new ArrayList<>();
        for (int rm = 0; rm < REDIS_MODES.length; rm++) {
            int mode = rm == 0 ? 0 : 2;
            double best = 0;
            String bestName = "";
            for (int i = 0; i < servers.size(); i++) {
                if (rate[mode][i] > best) {
                    best = rate[mode][i];
                    bestName = servers.get(i);
                }
            }
            CompareRun run = wrk[mode];
            String b = bestName;
            redis.add(new Redis(REDIS_MODES[rm][0], REDIS_MODES[rm][1], Stats.median(d.redisInline[rm]), Stats.median(d.redisMbulk[rm]),
                    bestName, best, Verdicts.ties(b, servers, s -> run.ratio(b, s, CompareRun.RATE), run.threshold)));
        }
        return new Findings(wrk, eb, servers, base, rows, claims, leftOut, rulerHeld, cpu, rate, closeOverKa, redis, d.redisVersion);
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static void render(Findings f, Report out) {
        CompareRun[] wrk = f.wrk;
        for (int m = 0; m < MODES.length; m++) {
            List<List<String>> rows = new ArrayList<>();
            for (Row x : f.rows.get(m)) {
                rows.add(List.of(x.server, Md.f0(x.rate), x.minRate == null ? "–" : Md.f0(x.minRate) + " – " + Md.f0(x.maxRate),
                        x.server.equals(f.base) ? "baseline" : wrk[m].words(x.overBase, Comparison.Quantity.RATE),
                        Md.f0(x.ebRate), Md.f2(x.ebRate / x.rate), Md.f2(x.cpu),
                        x.hasPeer ? wrk[m].words(x.overPeerRate, Comparison.Quantity.RATE) : "–",
                        x.hasPeer ? wrk[m].words(x.overPeerCpu, Comparison.Quantity.COST) : "–",
                        x.wrkErrors + " / " + x.ebErrors));
            }
            out.put(MODES[m] + "_table", "**wrk** " + wrk[m].design() + "; **echo-bench** " + f.eb[m].design() + ":\n\n"
                    + Md.table(List.of("server", "wrk req/s (median)", "wrk range over slices", "wrk req/s / " + f.base + ", 95% interval",
                    "echo-bench req/s (median)", "echo-bench / wrk (medians)", "server CPU µs/req (wrk)", "req/s / Netty peer (wrk)",
                    "CPU/req / Netty peer (wrk)", "errors wrk / echo-bench"), rows));
        }
        Claim.report(f.claims, "measured ratio", out);
        CompareRun.forkPrecision(out, wrk[0].forks(), wrk[0].json.config().rounds());
        out.put("claims_left_out", String.join("; ", f.leftOut));
        out.put("min_rounds", Integer.toString(MedianInterval.MIN_ROUNDS));
        out.put("ruler_held", f.rulerHeld + " of " + f.servers.size());
        for (int m = 0; m < MODES.length; m++) {
            out.put(MODES[m] + "_cpu_range", range(f.cpu[m], 2) + " µs");
            out.put(MODES[m] + "_rate_range", range(f.rate[m], 0) + " req/s");
        }
        out.put("close_cpu_multiple", range(f.closeOverKa, 1) + "×");
        out.put("redis_version", f.redisVersion);
        List<List<String>> rows = new ArrayList<>();
        for (Redis x : f.redis) {
            rows.add(List.of(x.label, Md.f0(x.ceiling), Md.f0(x.mbulk), x.best + " " + Md.f0(x.bestRate), Md.f2(x.bestRate / x.ceiling)));
            out.put("redis_" + x.mode, Md.f0(x.ceiling));
            out.put("best_" + x.mode, x.best + " (" + Md.f0(x.bestRate) + " req/s, " + Md.f2(x.bestRate / x.ceiling)
                    + "× redis's; medians of separate runs, no interval)" + Verdicts.highestMedian(x.ties));
            out.put("redis_vs_best_" + x.mode, x.bestRate >= x.ceiling ? "at or below" : "above");
        }
        out.put("redis_table", Md.table(List.of("mode", "redis PING_INLINE req/s", "redis PING_MBULK req/s",
                "fastest /ping server (wrk)", "fastest / redis inline"), rows));
        out.put("servers", String.join(", ", f.servers));
        out.put("rounds", Integer.toString(wrk[0].json.config().rounds()));
        out.put("forked", wrk[0].forks() > 1);
        out.put("base", f.base);
        out.put("compare_design", wrk[0].design());
        out.put("warmup_s", Md.f2(wrk[0].json.config().warmupS()));
        out.put("ratio_method", wrk[0].ratioMethod());
        out.put("threshold", THRESHOLD.declared());
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

    /** "0.84 to 1.05" (min to max, with {@code decimals} decimals). */
    private static String range(double[] v, int decimals) {
        double lo = v[Stats.best(v, false)], hi = v[Stats.best(v, true)];
        return decimals == 0 ? Md.f0(lo) + " to " + Md.f0(hi) : decimals == 1 ? Md.f1(lo) + " to " + Md.f1(hi) : Md.f2(lo) + " to " + Md.f2(hi);
    }
}
