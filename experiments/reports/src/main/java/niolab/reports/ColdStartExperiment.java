package niolab.reports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import niolab.common.ServerCatalog;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.Comparison;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;

/**
 * exp-cold-start: the 100-request serial run with fresh JVMs on JDK 17, JDK 25, JDK 25 with
 * the AOT cache (both sides, the client's alone), and against a warmed server (with a cold, then a warm client); the time from
 * exec to the ready line of lt and of an mp pool; which classes a start loads, and from where
 * (experiments/scripts/exp-cold-start.sh).
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class ColdStartExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05,
            "a start-up technique is worth its build step for {size} of the first seconds' rate or readiness");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    static final String[] CONFIGS = {"jdk17", "jdk25", "aot", "warm-server", "warm", "aot-client"};
    static final String[] LABELS = {"JDK 17", "JDK 25", "JDK 25 + AOT cache", "JDK 25, server warmed", "JDK 25, both warmed",
        "JDK 25 + AOT cache, client only"};
    static final String[] READY_CONFIGS = {"jdk17", "jdk25", "aot"};
    /** The speed targets the report checks its figures against. */
    static final double AOT_TARGET = 1.5;
    static final double MP_READY_TARGET_MS = 800;
    /** The pool size the ready target is set for. */
    static final String TARGET_WORKERS = "4";
    /** Requests per measured run (exp-cold-start.sh's REQUESTS). */
    static final int REQUESTS = 100;
    /** /proc/PID/stat's CPU resolution. */
    static final double TICK_MS = 10;

    @Override
    public String name() {
        return "cold-start";
    }

    /** One configuration's 100-request runs, one value per round: QPS, P50, P99 and server CPU per request (medians of each run), and errors in all. */
    record Serial(double[] qps, double[] p50, double[] p99, double[] serverCpu, long errors) {
    }

    /**
     * The run: the pairs' per-round figures (pairs.csv), each configuration's runs in
     * {@link #CONFIGS} order, the ready times (ready.csv), where classes came from, what each
     * cache left out, the AOT caches' description, and the machine's CPUs.
     */
    record Data(Csv pairs, Serial[] serial, Csv ready, Csv classes, Csv skipped, String aot, int cores) {
    }

    static Data load(Results r) {
        Csv pairs = r.csv("pairs.csv");
        int rounds = pairs.numbers("round", "config", "jdk25").length;
        Serial[] serial = new Serial[CONFIGS.length];
        for (int c = 0; c < CONFIGS.length; c++) {
            double[] q = new double[rounds], p50 = new double[rounds], p99 = new double[rounds], server = new double[rounds];
            long errors = 0;
            for (int i = 0; i < rounds; i++) {
                BenchReport b = r.bench("serial-" + CONFIGS[c] + "-" + (i + 1) + ".json");
                q[i] = Stats.median(b.column(Column.QPS));
                p50[i] = Stats.median(b.column(Column.P50));
                p99[i] = Stats.median(b.column(Column.P99));
                server[i] = Stats.median(b.serverCpuPerRun());
                errors += b.errors().total();
            }
            serial[c] = new Serial(q, p50, p99, server, errors);
        }
        return new Data(pairs, serial, r.csv("ready.csv"), r.csv("classes.csv"), r.csv("aot-skipped.csv"), r.text("aot.txt").trim(),
                r.json("env.json", RunEnvironment.class).cores());
    }

    /** The server's JIT CPU during the run without and with its cache (medians, ms), and what they say: "few", "tick", "more" or "not-more". */
    record Jit(double plain, double cached, String verdict, String tooFew) {
    }

    /**
     * lt's start with and without the cache ({@code lt}: "few", "overlap", "shorter" or
     * "longer"), the pool of 4 on one CPU against every CPU ({@code spread}: "few", "overlap" or
     * "apart"; {@code sooner}: the median's change, %), and the lab's claim on each pool's ready
     * time with the cache (by pool; null where not measured).
     */
    record Ready(String lt, String ltTooFew, String spread, String spreadTooFew, double sooner, Map<String, Claim> poolClaims) {
    }

    /**
     * What the run found: the QPS medians in {@link #CONFIGS} order; the lab's AOT claim (both
     * caches, the client's alone) and whether the cache sped the run up ({@code aot}: "wins",
     * "not", "few" or "unresolved", with the ratio {@code cached}); the client's cache alone
     * against both ({@code sides}: "few", "overlap", "faster" or "slower"); the share (%) of the
     * cold-to-warm gap that warming the server alone closes; the JIT and ready-time findings;
     * picocli's class file version; and whether the machine was shared.
     */
    record Findings(Data data, int rounds, double[] qps, Claim aotClaim, Claim aotClientClaim, String aot, String aotTooFew, Interval cached,
            String sides, String sidesTooFew, double closed, Jit jit, Ready ready, int picocliVersion, boolean loadShared) {
    }

    static Findings analyse(Data d) {
        double[] qps = new double[CONFIGS.length];
        double[][] q = new double[CONFIGS.length][];
        for (int c = 0; c < CONFIGS.length; c++) {
            q[c] = d.serial[c].qps;
            qps[c] = Stats.median(q[c]);
        }
        Interval cached = Claim.ratio(q[2], q[1]);
        double closed = gapClosed(qps);
        double[] p = d.pairs.numbers("load1"), s = d.ready.numbers("load1");
        return new Findings(d, q[1].length, qps, aotClaim(q[2], q[1]), aotClaim(q[5], q[1]), aotCase(q[2], q[1]), tooFew(q[2], q[1]), cached, sides(q),
                tooFew(q[5], q[2]), closed, jit(d.pairs), ready(d.ready), Integer.parseInt(d.aot.replaceAll("(?s).*picocli class file version: (\\d+).*", "$1")),
                Math.max(Stats.median(p), Stats.median(s)) > d.cores);
    }

    /**
     * Whether the cache sped the run up, from the rounds with ({@code cached}) and without it:
     * "few" rounds for an interval, "unresolved" where the paired ratio is not shown beyond the
     * threshold, else by the medians "wins" or "not".
     */
    static String aotCase(double[] cached, double[] plain) {
        Comparison.Verdict v = Comparison.verdict(Claim.ratio(cached, plain), THRESHOLD.value());
        return !enoughRounds(cached, plain) ? "few" : v == Comparison.Verdict.UNDECIDED || v == Comparison.Verdict.SAME ? "unresolved"
                : Stats.median(cached) / Stats.median(plain) > 1 ? "wins" : "not";
    }

    /** The CPU the server's JIT compilers used during the 100 requests, with and without its cache (medians, ms). */
    static Jit jit(Csv pairs) {
        double[] plainMs = pairs.numbers("server_jit_ms", "config", "jdk25"), cachedMs = pairs.numbers("server_jit_ms", "config", "aot");
        double plain = Stats.median(plainMs), cached = Stats.median(cachedMs);
        // /proc's CPU comes in 10 ms ticks: a difference of less than one tick is not a difference it can show
        return new Jit(plain, cached, !enoughRounds(plainMs, cachedMs) ? "few" : Math.abs(cached - plain) < TICK_MS ? "tick"
                : cached > plain ? "more" : "not-more", tooFew(plainMs, cachedMs));
    }

    /**
     * The client's cache alone against both caches: decided only when the two configurations'
     * ranges over the rounds do not overlap.
     */
    static String sides(double[][] q) {
        double[] clientOnly = q[5], both = q[2];
        return !enoughRounds(clientOnly, both) ? "few" : !disjoint(clientOnly, both) ? "overlap"
                : Stats.median(clientOnly) > Stats.median(both) ? "faster" : "slower";
    }

    /** The lab's claim that the cache makes the run at least 1.5× as fast, from the rounds' paired ratios. */
    static Claim aotClaim(double[] cached, double[] plain) {
        return Claim.atLeast("aot", Claim.paired(cached, plain), cached.length, AOT_TARGET);
    }

    /** "the lab's claim of 1.5× holds: 1.62× [1.55, 1.70] over 6 paired rounds". */
    static String aotWords(Claim c) {
        return "the lab's claim of " + Md.f1(AOT_TARGET) + "× " + Verdicts.verb(c) + ": " + Md.f2(c.measured().estimate()) + "× " + c.interval()
                + " over " + c.rounds() + " paired rounds";
    }

    static Ready ready(Csv csv) {
        double[] lt25Ms = readyValues(csv, "ready_ms", "lt", "1", "jdk25"), ltAotMs = readyValues(csv, "ready_ms", "lt", "1", "aot");
        String lt = !enoughRounds(lt25Ms, ltAotMs) ? "few" : !disjoint(lt25Ms, ltAotMs) ? "overlap"
                : Stats.median(ltAotMs) < Stats.median(lt25Ms) ? "shorter" : "longer";
        double[] pinnedMs = readyValues(csv, "ready_ms", "mp", TARGET_WORKERS, "aot");
        double[] spreadMs = readyValues(csv, "ready_ms", unpinned(csv), TARGET_WORKERS, "aot");
        double sooner = (1 - Stats.median(spreadMs) / Stats.median(pinnedMs)) * 100;
        boolean apart = pinnedMs.length > 0 && spreadMs.length > 0 && disjoint(pinnedMs, spreadMs);
        Map<String, Claim> claims = new LinkedHashMap<>();
        for (String s : pools(csv)) {
            double[] ms = readyValues(csv, "ready_ms", s, TARGET_WORKERS, "aot");
            claims.put(s, Double.isNaN(Stats.median(ms)) ? null : mpClaim(ms));
        }
        return new Ready(lt, tooFew(lt25Ms, ltAotMs), !enoughRounds(pinnedMs, spreadMs) ? "few" : apart ? "apart" : "overlap",
                tooFew(pinnedMs, spreadMs), sooner, claims);
    }

    /** The lab's claim that a pool of 4 with the cache is ready within 800 ms, on the interval of its ready times' median. */
    static Claim mpClaim(double[] readyMs) {
        return Claim.atMost("mp", Claim.medianDesign(readyMs), readyMs.length, MP_READY_TARGET_MS);
    }

    /** "the lab's claim of at most 800 ms holds (median 640 ms, 95% interval [620, 680] over 6 starts)". */
    static String mpWords(Claim c) {
        return "the lab's claim of at most " + Md.f0(MP_READY_TARGET_MS) + " ms " + Verdicts.verb(c) + " (median " + Md.f0(c.measured().estimate())
                + " ms, 95% interval " + c.interval() + " over " + c.rounds() + " starts)";
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static void render(Findings f, Report out) {
        Data d = f.data;
        out.put("rounds", Integer.toString(f.rounds));
        serial(f, out);
        out.put("jit_jdk25", Md.f0(f.jit.plain) + " ms");
        out.put("jit_aot", Md.f0(f.jit.cached) + " ms");
        out.put("jit_case", f.jit.verdict);
        out.put("jit_too_few", f.jit.tooFew);
        ratios(f.qps, out);
        out.put("jdk25_vs_jdk17", jdk25OverJdk17(f.qps, d.serial[1].qps, d.serial[0].qps));
        out.put("aot_sides_case", f.sides);
        out.put("aot_sides_too_few", f.sidesTooFew);
        out.put("aot_sides_ranges", " (QPS " + range(d.serial[5].qps) + " against " + range(d.serial[2].qps) + " over the rounds)");
        out.put("aot_target", aotWords(f.aotClaim));
        out.put("aot_client_target", aotWords(f.aotClientClaim));
        out.put("aot_case", f.aot);
        out.put("aot_too_few", f.aotTooFew);
        out.put("aot_ratio", Md.ratio(f.cached, THRESHOLD.value()) + ", " + Comparison.describe(f.cached, Comparison.Quantity.RATE, THRESHOLD.value()));
        ready(d.ready, f.ready, out);
        classes(d.classes, out);
        skipped(d.skipped, out);
        double[] p = d.pairs.numbers("load1"), s = d.ready.numbers("load1");
        out.put("load_pairs", Md.f1(Stats.median(p)) + " (" + Md.f1(min(p)) + "–" + Md.f1(max(p)) + ")");
        out.put("load_ready", Md.f1(Stats.median(s)) + " (" + Md.f1(min(s)) + "–" + Md.f1(max(s)) + ")");
        out.put("cores", Integer.toString(d.cores));
        out.put("load_shared", f.loadShared);
        out.put("aot_caches", d.aot);
        out.put("picocli_version", Integer.toString(f.picocliVersion));
        // JDK 25's cache leaves out classes older than version 50 (Java 6)
        out.put("picocli_old", f.picocliVersion < 50);
    }

    /** The 100-request runs: a row per configuration, medians over the pairs, and a row of QPS per round. */
    private static void serial(Findings f, Report out) {
        Csv pairs = f.data.pairs;
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> perRound = new ArrayList<>();
        long errors = 0;
        for (int c = 0; c < CONFIGS.length; c++) {
            Serial x = f.data.serial[c];
            List<String> roundRow = new ArrayList<>(List.of(LABELS[c]));
            for (double q : x.qps) roundRow.add(Md.f0(q));
            errors += x.errors;
            double[] wall = pairs.numbers("client_wall_ms", "config", CONFIGS[c]);
            // /proc counts CPU in 10 ms ticks: per run, not per request, is the honest resolution
            rows.add(List.of(LABELS[c], Md.f0(f.qps[c]), range(x.qps), Md.us(Stats.median(x.p50)), Md.us(Stats.median(x.p99)),
                    Md.f0(Stats.median(x.serverCpu) * REQUESTS / 1000), Md.f0(Stats.median(pairs.numbers("server_jit_ms", "config", CONFIGS[c]))),
                    Md.f0(Stats.median(wall))));
            perRound.add(roundRow);
        }
        out.put("serial_table", Md.table(List.of("configuration", "QPS (median)", "QPS (min–max)", "P50", "P99",
                "server CPU for the run (ms)", "of which its JIT compilers (ms)", "client JVM, exec to exit (ms)"), rows));
        List<String> header = new ArrayList<>(List.of("configuration"));
        for (int i = 1; i <= f.rounds; i++) header.add("round " + i);
        out.put("rounds_table", Md.table(header, perRound));
        out.put("serial_errors", Long.toString(errors));
    }

    /** Whether a comparison of these sets of rounds may give a direction: each needs the rounds of an interval. */
    static boolean enoughRounds(double[]... sets) {
        for (double[] s : sets) if (s.length < MedianInterval.MIN_ROUNDS) return false;
        return true;
    }

    /** "its 5 rounds are too few for an interval (at least 6)": what stands in for a direction on a short run. */
    static String tooFew(double[]... sets) {
        int fewest = Integer.MAX_VALUE;
        for (double[] s : sets) fewest = Math.min(fewest, s.length);
        return Claim.tooFew(fewest);
    }

    /** Whether the ranges (min to max) of two sets of rounds do not overlap. */
    static boolean disjoint(double[] a, double[] b) {
        return a[Stats.best(a, true)] < b[Stats.best(b, false)] || b[Stats.best(b, true)] < a[Stats.best(a, false)];
    }

    /** "1.34× the QPS (medians); paired by round, 1.34 [1.20, 1.49]: faster by ...": JDK 25 against JDK 17 with its interval. */
    static String jdk25OverJdk17(double[] q, double[] jdk25, double[] jdk17) {
        String medians = Md.f2(q[1] / q[0]) + "× the QPS (medians)";
        if (!enoughRounds(jdk25, jdk17)) return medians + "; " + tooFew(jdk25, jdk17);
        return medians + "; paired by round, " + CompareRun.words(Claim.ratio(jdk25, jdk17), Comparison.Quantity.RATE, THRESHOLD.value());
    }

    /** How much (%) of the cold-to-warm gap warming the server alone closes; the rest is the client's start. */
    static double gapClosed(double[] q) {
        return (q[3] - q[1]) / (q[4] - q[1]) * 100;
    }

    /** The comparisons of the configurations' QPS medians, in {@link #CONFIGS} order. */
    static void ratios(double[] q, Report out) {
        out.put("aot_client_vs_jdk25", Md.f2(q[5] / q[1]) + "×");
        out.put("aot_vs_jdk25", Md.f2(q[2] / q[1]) + "×");
        out.put("warm_server_vs_jdk25", Md.f2(q[3] / q[1]) + "×");
        out.put("warm_vs_jdk25", Md.f2(q[4] / q[1]) + "×");
        out.put("aot_share_of_warm", Md.f0(q[2] / q[4] * 100) + "%");
        out.put("cold_dominates", q[1] / q[4] < 0.5);
        double closed = gapClosed(q);
        out.put("warm_closes", closed > 0);
        out.put("warm_closed", Md.f0(closed));
        out.put("warm_rest", Md.f0(100 - closed));
        out.put("client_costlier", closed < 50);
        out.put("jdk25_share_of_warm", Md.f0(q[1] / q[4] * 100) + "%");
        out.put("warm_server_share_of_warm", Md.f0(q[3] / q[4] * 100) + "%");
        for (int c = 0; c < CONFIGS.length; c++) out.put("qps_" + CONFIGS[c].replace('-', '_'), Md.f0(q[c]));
    }

    /**
     * Exec to ready line, median (min–max), and the CPU spent by then, per start (lt; mp per
     * worker count, on the server's CPU and on every CPU) and JDK.
     */
    static void ready(Csv csv, Ready found, Report out) {
        List<List<String>> rows = new ArrayList<>(), cpuRows = new ArrayList<>();
        for (String[] start : starts(csv)) {
            String s = start[0], n = start[1];
            List<String> row = new ArrayList<>(List.of(serverLabel(s, n))), cpuRow = new ArrayList<>(row);
            for (String c : READY_CONFIGS) {
                double[] ms = readyValues(csv, "ready_ms", s, n, c);
                row.add(Md.f0(Stats.median(ms)) + " (" + range(ms) + ")");
                double cpu = Stats.median(readyValues(csv, "cpu_ms", s, n, c));
                cpuRow.add(Double.isNaN(cpu) ? "–" : Md.f0(cpu));
                // the sentences speak of lt and of the pool of 4, the size the target is set for
                if (s.equals("lt") || n.equals(TARGET_WORKERS)) {
                    out.put("ready_" + s.replace('-', '_') + "_" + c, Md.f0(Stats.median(ms)) + " ms");
                }
            }
            rows.add(row);
            cpuRows.add(cpuRow);
        }
        List<String> header = List.of("start", "JDK 17", "JDK 25", "JDK 25 + AOT cache");
        out.put("ready_table", Md.table(header, rows));
        out.put("ready_cpu_table", Md.table(header, cpuRows));
        out.put("mp_by_workers", poolSizes(csv));
        out.put("worker_cpu", workerCpu(csv));
        double ltCpu = Stats.median(readyValues(csv, "cpu_ms", "lt", "1", "aot"));
        out.put("lt_cpu_aot", Double.isNaN(ltCpu) ? "(not measured)" : Md.f0(ltCpu) + " ms");
        for (Map.Entry<String, Claim> pool : found.poolClaims.entrySet()) {
            String key = pool.getKey().replace('-', '_');
            Claim c = pool.getValue();
            out.put("ready_" + key + "_aot", c == null ? "(not measured)" : Md.f0(Stats.median(readyValues(csv, "ready_ms", pool.getKey(),
                    TARGET_WORKERS, "aot"))) + " ms");
            out.put("mp_target_" + key, c == null ? "was not measured" : mpWords(c));
        }
        double lt25 = Stats.median(readyValues(csv, "ready_ms", "lt", "1", "jdk25"));
        double ltAot = Stats.median(readyValues(csv, "ready_ms", "lt", "1", "aot"));
        out.put("lt_ready_aot_saving", Md.f0(lt25 - ltAot) + " ms (" + Md.f0((1 - ltAot / lt25) * 100) + "%)");
        out.put("ready_case", found.lt);
        out.put("ready_too_few", found.ltTooFew);
        out.put("spread_case", found.spread);
        out.put("spread_too_few", found.spreadTooFew);
        out.put("spread_pct", Md.f0(Math.abs(found.sooner)));
        out.put("spread_sooner", found.sooner >= 0);
        out.put("spread_bound", found.sooner > 0);
    }

    /** The pools ready.csv measured, in file order: {@code mp} pinned, and the script's variant of it on every CPU. */
    private static List<String> pools(Csv csv) {
        List<String> pools = new ArrayList<>();
        for (String[] start : starts(csv)) {
            if (!start[0].equals("lt") && !pools.contains(start[0])) pools.add(start[0]);
        }
        return pools;
    }

    /** The pool on every CPU: the one ready.csv names that is no server of the catalog (the script's unpinned mp), or "" for none. */
    private static String unpinned(Csv csv) {
        for (String s : pools(csv)) {
            if (!ServerCatalog.has(s)) return s;
        }
        return "";
    }

    /** The starts ready.csv measured, {server, workers}, in file order, each once. */
    private static List<String[]> starts(Csv csv) {
        List<String[]> starts = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (Map<String, String> row : csv.rows()) {
            String key = row.get("server") + " " + workers(row);
            if (seen.contains(key)) continue;
            seen.add(key);
            starts.add(new String[] {row.get("server"), workers(row)});
        }
        return starts;
    }

    /** With the cache, the pinned pool's ready time and CPU for each worker count, as a sentence. */
    private static String poolSizes(Csv csv) {
        List<String> parts = new ArrayList<>();
        for (String[] start : starts(csv)) {
            if (!start[0].equals("mp")) continue;
            double ms = Stats.median(readyValues(csv, "ready_ms", "mp", start[1], "aot"));
            double cpu = Stats.median(readyValues(csv, "cpu_ms", "mp", start[1], "aot"));
            parts.add(start[1] + (start[1].equals("1") ? " worker: " : " workers: ") + Md.f0(ms) + " ms"
                    + (Double.isNaN(cpu) ? "" : " (" + Md.f0(cpu) + " ms of CPU)"));
        }
        return parts.isEmpty() ? "no pool was measured" : String.join("; ", parts);
    }

    /**
     * With the cache, pinned: the CPU each worker more adds by the ready line, the slope between
     * the smallest and the largest pool measured.
     */
    private static String workerCpu(Csv csv) {
        int fewest = Integer.MAX_VALUE, most = 0;
        for (String[] start : starts(csv)) {
            if (!start[0].equals("mp")) continue;
            fewest = Math.min(fewest, Integer.parseInt(start[1]));
            most = Math.max(most, Integer.parseInt(start[1]));
        }
        if (most <= fewest) return "(one pool size measured)";
        double low = Stats.median(readyValues(csv, "cpu_ms", "mp", Integer.toString(fewest), "aot"));
        double high = Stats.median(readyValues(csv, "cpu_ms", "mp", Integer.toString(most), "aot"));
        if (Double.isNaN(low) || Double.isNaN(high)) return "(not measured)";
        return Md.f0((high - low) / (most - fewest)) + " ms";
    }

    /** The column {@code value} of ready.csv's rows for one start and JDK configuration. */
    private static double[] readyValues(Csv csv, String value, String server, String workers, String config) {
        List<Double> v = new ArrayList<>();
        for (Map<String, String> row : csv.rows()) {
            if (row.get("server").equals(server) && workers(row).equals(workers) && row.get("config").equals(config)) {
                v.add(Csv.number(row.get(value)));
            }
        }
        double[] out = new double[v.size()];
        for (int i = 0; i < out.length; i++) out[i] = v.get(i);
        return out;
    }

    /** A start's worker count: results written before ready.csv had the column measured lt and pools of 4. */
    private static String workers(Map<String, String> row) {
        String n = row.get("workers");
        if (n != null && !n.isEmpty()) return n;
        return row.get("server").equals("lt") ? "1" : TARGET_WORKERS;
    }

    private static String serverLabel(String s, String workers) {
        switch (s) {
            case "lt": return "lt (CPU of the server)";
            case "mp": return "mp, " + workers + " workers (CPU of the server)";
            default: return "mp, " + workers + " workers (every CPU)";
        }
    }

    /** What each cache leaves out, by the JVM's reason. */
    private static void skipped(Csv csv, Report out) {
        List<List<String>> rows = new ArrayList<>();
        long picocli = 0;
        for (Map<String, String> row : csv.rows()) {
            rows.add(List.of(row.get("app"), row.get("reason"), row.get("classes"), row.get("picocli")));
            if (row.get("app").equals("lab-server")) picocli += Long.parseLong(row.get("picocli"));
        }
        out.put("skipped_table", Md.table(List.of("application", "the JVM's reason", "classes", "of which picocli"), rows));
        out.put("lab_skipped_picocli", Long.toString(picocli));
    }

    /** Where each start's classes came from. */
    private static void classes(Csv csv, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (Map<String, String> row : csv.rows()) {
            rows.add(List.of(row.get("app"), label(row.get("config")), row.get("classes"), row.get("from_cache"),
                    row.get("from_jdk_image"), row.get("from_jar"), row.get("from_jar_picocli"), row.get("generated")));
        }
        out.put("classes_table", Md.table(List.of("application", "configuration", "classes loaded", "from the CDS archive or AOT cache",
                "from the JDK's modules image", "from the application jar", "of which picocli", "generated (lambdas, proxies)"), rows));
        Map<String, String> lab = csv.row("app", "lab-server", "config", "aot");
        Map<String, String> labPlain = csv.row("app", "lab-server", "config", "jdk25");
        out.put("lab_aot_from_jar", lab.get("from_jar"));
        out.put("lab_aot_picocli", lab.get("from_jar_picocli"));
        out.put("lab_jdk25_from_jar", labPlain.get("from_jar"));
        out.put("lab_classes_aot", lab.get("classes"));
        out.put("lab_classes_jdk25", labPlain.get("classes"));
    }

    private static String label(String config) {
        for (int c = 0; c < CONFIGS.length; c++) {
            if (CONFIGS[c].equals(config)) return LABELS[c];
        }
        return config;
    }

    private static String range(double[] v) {
        return Md.f0(min(v)) + "–" + Md.f0(max(v));
    }

    private static double min(double[] v) {
        return v[Stats.best(v, false)];
    }

    private static double max(double[] v) {
        return v[Stats.best(v, true)];
    }
}
