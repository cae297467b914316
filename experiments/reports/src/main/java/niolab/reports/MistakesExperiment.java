package niolab.reports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.common.CountersLine;
import niolab.common.ServerCatalog;
import niolab.common.results.BenchReport;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.MedianInterval;

/**
 * exp-mistakes: each {@code --mistake} beside the correct server in the scenario that shows its
 * symptom (experiments/scripts/exp-mistakes.sh): stranded connections, stalled bytes, wakeups,
 * stale reads, CPU share and log lines, resident memory over time, latency, wasted wakeups.
 * Those are counts of one run each; where the report compares a rate, a latency or CPU per
 * request, the two variants ran as the two servers of one {@code echo-bench compare}
 * ({@code compare-SCENARIO.json}, correct the baseline), and the comparison is a claim with the
 * interval of its paired rounds.
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class MistakesExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05,
            "a mistake worth teaching costs at least {size} of rate or CPU per request; the lab's own are far larger");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    private static final String[] ARCHS = ServerCatalog.selection("mistakes").toArray(new String[0]);
    /** The two servers of every scenario, in this order wherever a pair of figures is indexed: [0] correct, [1] broken. */
    private static final String[] VARIANTS = {"correct", "broken"};
    private static final Pattern LOOP_COUNTERS = Pattern.compile("(?m)^\\[loop(\\d+)\\] counters: (.*)$");
    /** The scenarios run once per variant with echo-bench's report and the server's counters; per arch those with one. */
    private static final String[] RUN_SCENARIOS = {"accept-once", "read-once", "standing-write", "keys-not-removed"};
    private static final String[] ARCH_RUN_SCENARIOS = {"no-accept-backoff", "blocking-on-loop", "nagle"};
    /** The scenarios with a compare of the two variants; per arch those with one. */
    private static final String[] COMPARES = {"standing-write", "keys-not-removed", "keys-not-removed-50"};
    private static final String[] ARCH_COMPARES = {"blocking-on-loop", "nagle"};

    @Override
    public String name() {
        return "mistakes";
    }

    /** One server's run of a scenario: echo-bench's report of the load and the server's counters. */
    record Run(BenchReport bench, ServerCounters counters) {
        static Run of(Results r, String scenario, String variant) {
            return new Run(r.bench(scenario + "-" + variant + ".json"), r.counters("counters-" + scenario + "-" + variant + ".txt"));
        }

        BenchReport.Run run() {
            return bench.runs().get(0);
        }

        /** Requests the server answered in the run and its warm-up: what its counters cover. */
        double served() {
            return run().requests() + (bench.warmup() == null ? 0 : bench.warmup().requests());
        }

        double perRequest(String counter) {
            return counters.get(counter) / served();
        }
    }

    /** One line of no-linger.csv: a try (or several) of one head size on one server. */
    record LingerTry(String arch, String variant, long headBytes, double tries, boolean writeFailed, boolean saw431, double thenReset) {
    }

    /** The herd's run of one arch and variant: its line of herd.csv and each loop's counters, in loop order. */
    record HerdRun(String arch, String variant, double connections, double loopWakeups, List<Map<String, Long>> loops) {
    }

    /**
     * The run: the counted runs by "SCENARIO-VARIANT" (per arch "SCENARIO-ARCH-VARIANT"), the
     * compares by scenario (absent when the results predate them), the scenarios' tables, the
     * herd's and no-linger's runs ({@code lingerTries} null when the results predate the
     * scenario) and the machine's load when the run began.
     */
    record Data(Map<String, Run> runs, Map<String, CompareRun> compares, Csv standingIdle, Csv noAcceptBackoff, Csv rss, Csv capped,
            Map<String, ServerCounters> unboundedCounters, List<HerdRun> herd, List<LingerTry> lingerTries, Map<String, Long> lingerCloses,
            double load1, int cores) {
    }

    static Data load(Results r) {
        Map<String, Run> runs = new LinkedHashMap<>();
        Map<String, CompareRun> compares = new LinkedHashMap<>();
        Map<String, ServerCounters> unbounded = new LinkedHashMap<>();
        for (String v : VARIANTS) {
            for (String s : RUN_SCENARIOS) runs.put(s + "-" + v, Run.of(r, s, v));
            for (String arch : ARCHS) {
                for (String s : ARCH_RUN_SCENARIOS) runs.put(s + "-" + arch + "-" + v, Run.of(r, s + "-" + arch, v));
                unbounded.put(arch + "-" + v, r.counters("counters-unbounded-output-" + arch + "-" + v + ".txt"));
            }
        }
        List<String> compared = new ArrayList<>(List.of(COMPARES));
        for (String s : ARCH_COMPARES) {
            for (String arch : ARCHS) compared.add(s + "-" + arch);
        }
        for (String s : compared) {
            String file = "compare-" + s + ".json";
            if (r.has(file)) compares.put(s, CompareRun.of(r, file, THRESHOLD));
        }
        List<HerdRun> herd = new ArrayList<>();
        for (Map<String, String> row : r.csv("herd.csv").rows()) {
            String arch = row.get("arch"), v = row.get("variant");
            List<Map<String, Long>> loops = new ArrayList<>();
            Matcher m = LOOP_COUNTERS.matcher(r.text("counters-herd-" + arch + "-" + v + ".txt"));
            while (m.find()) loops.add(CountersLine.parse(m.group(2)));
            herd.add(new HerdRun(arch, v, Csv.number(row.get("connections")), Csv.number(row.get("loop_wakeups")), loops));
        }
        return new Data(runs, compares, r.csv("standing-write-idle.csv"), r.csv("no-accept-backoff.csv"), r.csv("unbounded-output.csv"),
                r.csv("unbounded-output-capped.csv"), unbounded, herd, loadLingerTries(r), loadLingerCloses(r),
                Double.parseDouble(r.text("loadavg.txt").trim().split("\\s+")[0]), r.json("env.json", RunEnvironment.class).cores());
    }

    /** no-linger.csv's lines, or null when the results predate the scenario. */
    static List<LingerTry> loadLingerTries(Results r) {
        if (!r.has("no-linger.csv")) return null;
        List<LingerTry> tries = new ArrayList<>();
        for (Map<String, String> row : r.csv("no-linger.csv").rows()) {
            tries.add(new LingerTry(row.get("arch"), row.get("variant"), (long) Csv.number(row.get("head_bytes")), Csv.number(row.get("tries")),
                    Csv.number(row.get("write_failed")) > 0, Csv.number(row.get("saw_431")) > 0, Csv.number(row.get("then_reset"))));
        }
        return tries;
    }

    /** The lingering closes each no-linger server counted, by "ARCH-VARIANT" (0 where it wrote no counters). */
    static Map<String, Long> loadLingerCloses(Results r) {
        Map<String, Long> closes = new LinkedHashMap<>();
        for (String arch : ARCHS) {
            for (String v : VARIANTS) {
                String file = "counters-no-linger-" + arch + "-" + v + ".txt";
                closes.put(arch + "-" + v, r.has(file) ? r.counters(file).get("linger_closes") : 0L);
            }
        }
        return closes;
    }

    /** The claim that the broken server is slower, costlier, capped or stalled, where its compare paired enough rounds; null where not. */
    record Claims(Claim standingWriteCpu, Claim keysRate, Claim keysCpu, Claim target, Map<String, Claim> blockingCap, Map<String, Claim> nagleStall) {
        List<Claim> all() {
            List<Claim> all = new ArrayList<>();
            for (Claim c : new Claim[] {standingWriteCpu, keysRate, keysCpu, target}) {
                if (c != null) all.add(c);
            }
            // the table's order: each arch's blocking cap, then each arch's nagle stall, after the target
            List<Claim> tail = new ArrayList<>();
            tail.addAll(blockingCap.values());
            tail.addAll(nagleStall.values());
            all.addAll(tail);
            return all;
        }
    }

    /** One arch and head size of no-linger: tries, writes failed, 431s never read, 431s a client that stops at its first error never saw, resets. */
    record LingerRow(String arch, String variant, long headBytes, double tries, double writesFailed, double neverRead, double neverSeen,
            double resets) {
    }

    /**
     * What the run found. Per variant ([0] correct, [1] broken): bytes read-once sent and left
     * unread; standing-write's CPU share and selects per second while idle and keys per select
     * when busy; keys-not-removed's reads and empty reads per request and keys per select. Per
     * arch (by "ARCH-VARIANT") the events per wait, writes per response and herd wakeups per
     * connection; the claims; whether the shared listener woke the loops more often
     * ({@code herdMore}: "all", "none" or "one" of the archs); no-linger's rows and totals per
     * "ARCH-VARIANT" {tries, never seen, resets} (null when not measured); whether the machine
     * was shared when the run began.
     */
    record Findings(Data data, double[] readSent, double[] readUnread, double[] idleShare, double[] idleSelects, double[] busyKeys,
            double[] keysReads, double[] keysEmpty, double[] keysPerSelect, Map<String, Double> eventsPerWait, Map<String, Double> writesPerResponse,
            Map<String, Double> herdWakeups, Map<String, Long> herdEmpty, String herdMore, Claims claims, List<LingerRow> linger,
            Map<String, double[]> lingerTotals, boolean loadShared) {
    }

    /** A loop that sleeps 1 ms per request serves at most this many requests a second. */
    static final double BLOCKING_CAP = 1000;

    /** Linux's shortest delayed-ACK timeout (TCP_DELACK_MIN, HZ/25): a response held for an ACK waits at least this. */
    static final double DELAYED_ACK_MS = 40;
    /** {@link #DELAYED_ACK_MS} as the claim on it names it. */
    private static final String DELAYED_ACK = "Linux's shortest delayed ACK";

    static Findings analyse(Data d) {
        double[] readSent = new double[2], readUnread = new double[2], idleShare = new double[2], idleSelects = new double[2];
        double[] busyKeys = new double[2], keysReads = new double[2], keysEmpty = new double[2], keysPerSelect = new double[2];
        Map<String, Double> eventsPerWait = new LinkedHashMap<>(), writes = new LinkedHashMap<>();
        for (int i = 0; i < 2; i++) {
            String v = VARIANTS[i];
            Run read = d.runs.get("read-once-" + v);
            readSent[i] = (double) read.run().attempted() * read.bench.config().size();
            readUnread[i] = readSent[i] - read.counters.get("bytes_in");
            Map<String, String> idle = d.standingIdle.row("variant", v);
            idleShare[i] = Csv.number(idle.get("cpu_share"));
            idleSelects[i] = Csv.number(idle.get("selects")) / Csv.number(idle.get("seconds"));
            busyKeys[i] = d.runs.get("standing-write-" + v).counters.eventsPerWait();
            Run keys = d.runs.get("keys-not-removed-" + v);
            keysReads[i] = keys.perRequest("reads");
            keysEmpty[i] = keys.perRequest("reads_eagain");
            keysPerSelect[i] = keys.counters.eventsPerWait();
            for (String arch : ARCHS) {
                eventsPerWait.put(arch + "-" + v, d.runs.get("blocking-on-loop-" + arch + "-" + v).counters.eventsPerWait());
                writes.put(arch + "-" + v, d.runs.get("nagle-" + arch + "-" + v).perRequest("writes"));
            }
        }
        Map<String, Double> wakeups = new LinkedHashMap<>();
        Map<String, Long> empty = new LinkedHashMap<>();
        for (HerdRun h : d.herd) {
            long e = 0;
            for (Map<String, Long> loop : h.loops) e += loop.getOrDefault("empty_accepts", 0L);
            empty.put(h.arch + "-" + h.variant, e);
            wakeups.put(h.arch + "-" + h.variant, h.loopWakeups / h.connections);
        }
        List<LingerRow> linger = d.lingerTries == null ? null : lingerRows(d.lingerTries);
        return new Findings(d, readSent, readUnread, idleShare, idleSelects, busyKeys, keysReads, keysEmpty, keysPerSelect, eventsPerWait, writes,
                wakeups, empty, herdMore(wakeups.get("lt-broken"), wakeups.get("lt-correct"), wakeups.get("et-broken"), wakeups.get("et-correct")),
                claims(d.compares), linger, linger == null ? null : lingerTotals(linger, d.lingerCloses), d.load1 > d.cores);
    }

    /** The lab's claims on the compares: in the claims table's order. */
    static Claims claims(Map<String, CompareRun> compares) {
        CompareRun standing = compares.get("standing-write"), keys = compares.get("keys-not-removed"), target = compares.get("keys-not-removed-50");
        Map<String, Claim> caps = new LinkedHashMap<>(), stalls = new LinkedHashMap<>();
        for (String arch : ARCHS) {
            double[] rates = values(compares.get("blocking-on-loop-" + arch), CompareRun.RATE);
            if (rates.length >= MedianInterval.MIN_ROUNDS) {
                caps.put(arch, Claim.atMost("`blocking-on-loop` (" + arch + "): broken's median rate, req/s", Claim.medianDesign(rates), rates.length,
                        BLOCKING_CAP));
            }
            double[] p50ms = values(compares.get("nagle-" + arch), CompareRun.P50);
            if (p50ms.length >= MedianInterval.MIN_ROUNDS) {
                for (int i = 0; i < p50ms.length; i++) p50ms[i] /= 1000;
                stalls.put(arch, Claim.atLeast("`nagle` (" + arch + "): broken's median p50, ms, at least " + DELAYED_ACK,
                        Claim.medianDesign(p50ms), p50ms.length, DELAYED_ACK_MS));
            }
        }
        String keysNotRemoved = "`keys-not-removed`", keysLoad = keysNotRemoved + ", one busy connection beside 50 quiet:";
        return new Claims(ratioClaim(standing, "`standing-write`, 50 busy connections:", CompareRun.CPU),
                ratioClaim(keys, keysLoad, CompareRun.RATE), ratioClaim(keys, keysLoad, CompareRun.CPU),
                ratioClaim(target, "the target: " + keysNotRemoved + " at 50 keep-alive connections,", CompareRun.RATE),
                caps, stalls);
    }

    /** The broken server's values of a quantity, one per slice; none without a compare. */
    private static double[] values(CompareRun run, int quantity) {
        return run == null ? new double[0] : run.values("broken", quantity);
    }

    /**
     * Broken over correct: slower (its rate's interval wholly below 1) or costlier (CPU per
     * request wholly above 1); null without a compare or when too few rounds pair for an interval
     * (the compare's table says so). Its statement: "LOAD broken's QUANTITY / correct's".
     */
    private static Claim ratioClaim(CompareRun run, String load, int quantity) {
        ForkInterval ratio = run == null ? null : run.forkRatio("broken", "correct", quantity);
        if (ratio == null) return null;
        String statement = load + " broken's " + (quantity == CompareRun.RATE ? "rate" : "CPU per request") + " / correct's";
        int rounds = run.rounds("broken", "correct");
        return quantity == CompareRun.RATE ? Claim.atMost(statement, ratio, rounds, 1.0) : Claim.atLeast(statement, ratio, rounds, 1.0);
    }

    /** no-linger's tries summed per arch, server and head size, in that order (head sizes ascending). */
    static List<LingerRow> lingerRows(List<LingerTry> tries) {
        List<LingerRow> rows = new ArrayList<>();
        for (String arch : ARCHS) {
            for (String v : VARIANTS) {
                // head bytes -> tries, writes failed, 431s read, 431s read after a whole write, resets
                Map<Long, double[]> bySize = new TreeMap<>();
                for (LingerTry t : tries) {
                    if (!t.arch.equals(arch) || !t.variant.equals(v)) continue;
                    double[] s = bySize.computeIfAbsent(t.headBytes, k -> new double[5]);
                    s[0] += t.tries;
                    s[1] += t.writeFailed ? 1 : 0;
                    s[2] += t.saw431 ? 1 : 0;
                    s[3] += t.saw431 && !t.writeFailed ? 1 : 0;
                    s[4] += t.thenReset;
                }
                for (Map.Entry<Long, double[]> e : bySize.entrySet()) {
                    double[] s = e.getValue();
                    rows.add(new LingerRow(arch, v, e.getKey(), s[0], s[1], s[0] - s[2], s[0] - s[3], s[4]));
                }
            }
        }
        return rows;
    }

    /** Per "ARCH-VARIANT" with tries: {tries, 431s never seen, resets, lingering closes}. */
    static Map<String, double[]> lingerTotals(List<LingerRow> rows, Map<String, Long> closes) {
        Map<String, double[]> totals = new LinkedHashMap<>();
        for (LingerRow row : rows) {
            String key = row.arch + "-" + row.variant;
            double[] t = totals.computeIfAbsent(key, k -> new double[] {0, 0, 0, closes.getOrDefault(k, 0L)});
            t[0] += row.tries;
            t[1] += row.neverSeen;
            t[2] += row.resets;
        }
        return totals;
    }

    /**
     * Whether the shared listener woke the loops more often per connection than a listener per
     * loop, as this run's counts show (one run each: a count, not an interval): on "all" archs,
     * "none" or "one".
     */
    static String herdMore(double ltShared, double ltOwn, double etShared, double etOwn) {
        if (ltShared > ltOwn && etShared > etOwn) return "all";
        if (ltShared <= ltOwn && etShared <= etOwn) return "none";
        return "one";
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static void render(Findings f, Report out) {
        Data d = f.data;
        out.put("load_shared", f.loadShared);
        out.put("load1", Md.f2(d.load1));
        out.put("cores", Integer.toString(d.cores));
        renderCounts(f, out);
        renderCompares(f, out);
        renderHerd(f, out);
        renderLinger(f.linger, f.lingerTotals, out);
        out.chart("mistakes-unbounded-output-rss.svg", rssChart(d).render());
        renderClaims(f, out);
    }

    /** The scenarios counted once per variant: accept-once, read-once, standing-write, keys-not-removed, no-accept-backoff, unbounded-output. */
    private static void renderCounts(Findings f, Report out) {
        Data d = f.data;
        List<List<String>> accept = new ArrayList<>(), read = new ArrayList<>(), standing = new ArrayList<>(), keys = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String v = VARIANTS[i];
            Run a = d.runs.get("accept-once-" + v);
            BenchReport.Run b = a.run();
            out.put("accept_once_" + v, Md.f0(b.requests()) + " of " + Md.f0(b.attempted()));
            accept.add(List.of(v, Md.f0(b.attempted()), Md.f0(b.requests()), Md.f0(b.errors().timeout()),
                    Md.f0(b.errors().total() - b.errors().timeout()), Md.f0(a.counters.get("accepts"))));
            Run rd = d.runs.get("read-once-" + v);
            b = rd.run();
            out.put("read_once_" + v, Md.f0(b.requests()) + " of " + Md.f0(b.attempted()) + " echoes complete, "
                    + Md.f0(f.readUnread[i]) + " of " + Md.f0(f.readSent[i]) + " bytes never read");
            read.add(List.of(v, Md.f0(b.attempted()), Md.f0(b.requests()), Md.f0(b.errors().timeout()), Md.f0(f.readSent[i]),
                    Md.f0(rd.counters.get("bytes_in")), Md.f0(rd.counters.get("bytes_out")), Md.f0(rd.counters.get("reads"))));
            out.put("standing_write_" + v + "_cpu", Md.f0(f.idleShare[i] * 100) + "%");
            out.put("standing_write_" + v + "_selects", Md.f0(f.idleSelects[i]));
            out.put("standing_write_" + v + "_busy_keys", Md.f2(f.busyKeys[i]));
            standing.add(List.of(v, Md.f0(f.idleShare[i] * 100) + "%", Md.f0(f.idleSelects[i]), Md.f2(f.busyKeys[i])));
            out.put("keys_not_removed_" + v + "_eagain", Md.f2(f.keysEmpty[i]));
            out.put("keys_not_removed_" + v + "_keys", Md.f2(f.keysPerSelect[i]));
            keys.add(List.of(v, Md.f0(d.runs.get("keys-not-removed-" + v).served()), Md.f2(f.keysReads[i]), Md.f2(f.keysEmpty[i]),
                    Md.f2(f.keysPerSelect[i])));
        }
        out.put("accept_once_broken_accepts", count(d.runs.get("accept-once-broken").counters.get("accepts"), "connection"));
        out.put("accept_once_table", Md.table(List.of("server", "connections", "echoed", "timed out (stranded)", "other errors", "server accepts"),
                accept));
        out.put("read_once_table", Md.table(List.of("server", "requests", "complete", "timed out", "bytes sent", "bytes read by the server",
                "bytes echoed", "reads"), read));
        out.put("standing_write_table", Md.table(List.of("server", "CPU while 50 connections idle", "selects/s while idle",
                "busy: keys handled per select"), standing));
        out.put("keys_not_removed_table", Md.table(List.of("server", "requests", "reads per request", "reads that found nothing, per request",
                "keys handled per select"), keys));
        List<List<String>> backoff = new ArrayList<>(), rss = new ArrayList<>();
        for (String arch : ARCHS) {
            for (String v : VARIANTS) {
                Map<String, String> row = d.noAcceptBackoff.row("arch", arch, "variant", v);
                Run run = d.runs.get("no-accept-backoff-" + arch + "-" + v);
                double share = Csv.number(row.get("cpu_share"));
                out.put("no_accept_backoff_" + arch + "_" + v, Md.f0(share * 100) + "% of a core, " + count(Csv.number(row.get("log_lines")), "log line"));
                backoff.add(List.of(arch, v, Md.f0(share * 100) + "%", Md.f0(run.counters.get("accept_failures")), row.get("log_lines"),
                        Md.f0(run.counters.get("accepts")), Md.f0(run.run().requests()) + " of " + Md.f0(run.run().attempted())));
                double[] mib = d.rss.numbers("rss_mib", "arch", arch, "variant", v);
                double peak = mib[Stats.best(mib, true)];
                out.put("unbounded_output_" + arch + "_" + v, "RSS " + Md.f0(mib[0]) + " → " + Md.f0(peak) + " MiB");
                rss.add(List.of(arch, v, Md.f0(mib[0]), Md.f0(peak), Md.f0(mib[mib.length - 1]),
                        Md.f0(d.unboundedCounters.get(arch + "-" + v).get("bytes_in") / 1048576.0),
                        d.capped.row("arch", arch, "variant", v).get("capped").equals("0") ? "no" : "yes"));
            }
        }
        out.put("no_accept_backoff_table", Md.table(List.of("arch", "server", "CPU while out of descriptors", "accept failures", "log lines",
                "accepts", "served afterwards"), backoff));
        out.put("unbounded_output_table", Md.table(List.of("arch", "server", "RSS at start (MiB)", "peak RSS (MiB)", "RSS after 8 s (MiB)",
                "MiB read from the client", "closed at the cap"), rss));
    }

    private static SvgChart rssChart(Data d) {
        SvgChart chart = new SvgChart("Server RSS while a client sends 1.5 GiB and never reads", "seconds", "RSS (MiB)");
        for (String arch : ARCHS) {
            for (String v : VARIANTS) {
                chart.series(arch + " " + v, d.rss.numbers("t_s", "arch", arch, "variant", v), d.rss.numbers("rss_mib", "arch", arch, "variant", v));
            }
        }
        return chart;
    }

    /**
     * The compared scenarios: each compare's section ({@code KEY_compare}, empty when the results
     * predate it, so the template says so under {@code KEY_label}) and the figures its sentences quote.
     */
    private static void renderCompares(Findings f, Report out) {
        Map<String, CompareRun> c = f.data.compares;
        section(out, "standing_write", c.get("standing-write"));
        pair(out, "standing_write", c.get("standing-write"), "50 busy connections");
        section(out, "keys_not_removed", c.get("keys-not-removed"));
        pair(out, "keys_not_removed", c.get("keys-not-removed"), "one busy connection beside 50 quiet ones");
        CompareRun target = c.get("keys-not-removed-50");
        section(out, "target", target);
        Claim slower = f.claims.target;
        out.put("target", target == null ? "predates" : slower == null ? "few" : "claim");
        out.put("target_rounds", target == null ? "" : Integer.toString(slower == null ? target.rounds("broken", "correct") : slower.rounds()));
        out.put("target_ratio", slower == null ? "" : target.words(slower.measured(), Comparison.Quantity.RATE));
        out.put("target_verdict", slower == null ? "" : Verdicts.verb(slower));
        List<String> caps = new ArrayList<>(), stalls = new ArrayList<>();
        List<List<String>> events = new ArrayList<>(), writes = new ArrayList<>();
        for (String arch : ARCHS) {
            CompareRun blocking = c.get("blocking-on-loop-" + arch), nagle = c.get("nagle-" + arch);
            for (String v : VARIANTS) {
                String key = arch + "-" + v;
                events.add(List.of(arch, v, Md.f2(f.eventsPerWait.get(key))));
                writes.add(List.of(arch, v, Md.f2(f.writesPerResponse.get(key))));
                out.put("blocking_on_loop_" + arch + "_" + v, Md.f2(f.eventsPerWait.get(key)) + " events per wait"
                        + (blocking == null ? "" : ", " + medians(blocking, v)));
                out.put("nagle_" + arch + "_" + v, Md.f2(f.writesPerResponse.get(key)) + " writes per response" + (nagle == null ? "" : ", " + medians(nagle, v)));
                out.put("blocking_on_loop_" + arch + "_" + v + "_medians", blocking == null ? "" : medians(blocking, v));
                out.put("nagle_" + arch + "_" + v + "_p50", nagle == null ? "" : medianP50(nagle, v));
            }
            out.put("blocking_on_loop_" + arch + "_events", Md.f2(f.eventsPerWait.get(arch + "-broken")) + " broken, "
                    + Md.f2(f.eventsPerWait.get(arch + "-correct")) + " correct");
            section(out, "blocking_on_loop_" + arch, blocking);
            out.put("blocking_on_loop_" + arch + "_rate", blocking == null ? "" : pairWords(blocking, CompareRun.RATE, Comparison.Quantity.RATE));
            section(out, "nagle_" + arch, nagle);
            out.put("nagle_" + arch + "_ratio", nagle == null ? "" : pairWords(nagle, CompareRun.P50, Comparison.Quantity.LATENCY));
            Claim cap = f.claims.blockingCap.get(arch), stall = f.claims.nagleStall.get(arch);
            if (cap != null) {
                caps.add("a median of " + Md.f0(cap.measured().estimate()) + " req/s on " + arch + ", where the claim of at most "
                        + Md.f0(BLOCKING_CAP) + " " + Verdicts.verb(cap));
            }
            if (stall != null) {
                stalls.add("p50 " + medianP50(nagle, "broken") + " against " + medianP50(nagle, "correct") + " on " + arch
                        + ", where the claim of at least " + Md.f0(DELAYED_ACK_MS) + " ms " + Verdicts.verb(stall));
            }
        }
        out.put("blocking_on_loop_table", Md.table(List.of("arch", "server", "events per wait"), events));
        out.put("nagle_table", Md.table(List.of("arch", "server", "writes per response"), writes));
        out.put("blocking_cap", !caps.isEmpty() ? "claims" : c.containsKey("blocking-on-loop-lt") ? "few" : "predates");
        out.put("blocking_on_loop_caps", String.join(" and ", caps));
        out.put("nagle_stall", !stalls.isEmpty() ? "claims" : c.containsKey("nagle-lt") ? "few" : "predates");
        out.put("nagle_stalls", String.join("; ", stalls));
    }

    /**
     * {@code KEY_compare}: whether the results have the compare (they may predate it); then its
     * design and table, {@code KEY_compare_design} and {@code KEY_compare_table}, which the
     * template heads with the scenario's {@code KEY_label}.
     */
    private static void section(Report out, String key, CompareRun run) {
        out.put(key + "_compare", run != null);
        if (run == null) return;
        out.put(key + "_compare_design", run.design());
        out.put(key + "_compare_table", run.table());
    }

    /** {@code KEY_load}, and broken over correct in rate ({@code KEY_pair_rate}) and CPU per request ({@code KEY_pair_cpu}). */
    private static void pair(Report out, String key, CompareRun run, String load) {
        out.put(key + "_load", load);
        out.put(key + "_pair_rate", run == null ? "" : pairWords(run, CompareRun.RATE, Comparison.Quantity.RATE));
        out.put(key + "_pair_cpu", run == null ? "" : pairWords(run, CompareRun.CPU, Comparison.Quantity.COST));
    }

    /** Broken over correct in one quantity: "0.93 [0.90, 0.97]: slower by 7% [3%, 10%]". */
    private static String pairWords(CompareRun run, int quantity, Comparison.Quantity q) {
        return run.words(run.ratio("broken", "correct", quantity), q);
    }

    /** "980 req/s, p50 20.1 ms": a server's medians over its slices. */
    private static String medians(CompareRun run, String server) {
        return Md.f0(Stats.median(run.values(server, CompareRun.RATE))) + " req/s, p50 " + medianP50(run, server);
    }

    private static String medianP50(CompareRun run, String server) {
        return latency(Stats.median(run.values(server, CompareRun.P50)));
    }

    private static void renderHerd(Findings f, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (String arch : ARCHS) {
            for (HerdRun h : f.data.herd) {
                if (!h.arch.equals(arch)) continue;
                String key = arch + "-" + h.variant;
                List<String> accepts = new ArrayList<>();
                for (Map<String, Long> loop : h.loops) accepts.add(Long.toString(loop.getOrDefault("accepts", 0L)));
                String listeners = h.variant.equals("correct") ? "one per loop (SO_REUSEPORT)"
                        : h.variant.equals("broken") ? "one for all loops" : "one for all loops, EPOLLEXCLUSIVE";
                rows.add(List.of(arch, h.variant, listeners, String.join(" / ", accepts), Md.f0(f.herdEmpty.get(key)), Md.f2(f.herdWakeups.get(key))));
                out.put("herd_" + arch + "_" + h.variant, Md.f0(f.herdEmpty.get(key)) + " empty accepts, " + Md.f2(f.herdWakeups.get(key))
                        + " loop wakeups per connection");
                out.put("herd_" + arch + "_" + h.variant + "_accepts", String.join(" / ", accepts));
            }
        }
        double lt = f.herdWakeups.get("lt-correct"), et = f.herdWakeups.get("et-correct");
        out.put("herd_correct_wakeups", Md.f2(lt) + " (lt) and " + Md.f2(et) + " (et)");
        // a connection brings three events to its loop: its accept, its request, its close
        out.put("herd_events_fewer", Math.max(lt, et) < 3);
        out.put("herd_table", Md.table(List.of("arch", "server", "listening sockets", "accepts per loop", "empty accepts (all loops)",
                "loop-thread wakeups per connection"), rows));
        out.put("herd_more_case", f.herdMore);
        out.put("herd_more_counts", Md.f2(f.herdWakeups.get("lt-broken")) + " against " + Md.f2(lt) + " wakeups per connection on lt, "
                + Md.f2(f.herdWakeups.get("et-broken")) + " against " + Md.f2(et) + " on et");
    }

    /**
     * no-linger: its table, and per arch and server {@code no_linger_ARCH_VARIANT_counts} (empty
     * when not measured); {@code linger} and {@code totals} are null when the results predate the scenario.
     */
    static void renderLinger(List<LingerRow> linger, Map<String, double[]> totals, Report out) {
        out.put("no_linger_measured", linger != null);
        List<List<String>> rows = new ArrayList<>();
        if (linger != null) {
            for (LingerRow x : linger) {
                rows.add(List.of(x.arch, x.variant, headSize(x.headBytes), Md.f0(x.tries), Md.f0(x.writesFailed), Md.f0(x.neverRead),
                        Md.f0(x.neverSeen) + " (" + Md.f0(100 * x.neverSeen / x.tries) + "%)", Md.f0(x.resets)));
            }
        }
        out.put("no_linger_table", Md.table(List.of("arch", "server", "head", "tries", "write failed", "431 never read",
                "431 never seen by a client that stops at its first error", "ended by a reset"), rows));
        for (String arch : ARCHS) {
            for (String v : VARIANTS) {
                double[] t = totals == null ? null : totals.get(arch + "-" + v);
                out.put("no_linger_" + arch + "_" + v + "_counts", t == null ? "" : Md.f0(t[1]) + " of " + Md.f0(t[0]) + " tries ("
                        + Md.f0(100 * t[1] / t[0]) + "%), " + Md.f0(t[2]) + " ended by a reset, " + count(t[3], "lingering close"));
            }
            out.put("no_linger_" + arch + "_row", totals != null && totals.containsKey(arch + "-correct") && totals.containsKey(arch + "-broken"));
        }
    }

    /** The comparisons' claims as a table with their tally and precision; {@code compared}: whether there are any. */
    private static void renderClaims(Findings f, Report out) {
        List<Claim> claims = f.claims.all();
        out.put("compared", !claims.isEmpty());
        CompareRun run = f.data.compares.get("blocking-on-loop-lt");
        out.put("forked", !claims.isEmpty() && run != null && run.forks() > 1);
        if (claims.isEmpty()) {
            out.put("claims_precision", Claim.precision(Integer.MAX_VALUE));
            return;
        }
        Claim.report(claims, "figure", out);
        if (run != null && run.forks() > 1) {
            out.put("fork_precision", CompareRun.forkPrecision(run.forks(), run.roundsPerFork()));
            out.put("claims_rounds_pooled", CompareRun.lowerFirst(out.values().get("claims_rounds")));
        }
    }

    /** {@code 20 KB}, {@code 1 MB}: the head sizes as the scenario names them (10^3 bytes). */
    static String headSize(long bytes) {
        return bytes >= 1_000_000 ? Md.f0(bytes / 1e6) + " MB" : Md.f0(bytes / 1e3) + " KB";
    }

    /** {@code 1 log line}, {@code 2 log lines}. */
    static String count(double n, String what) {
        return Md.f0(n) + " " + what + (n == 1 ? "" : "s");
    }

    /** A latency in µs as people read it: {@code 45 µs} or {@code 40.1 ms}. */
    static String latency(double us) {
        return us < 1000 ? Md.us(us) : Md.f1(us / 1000) + " ms";
    }
}
