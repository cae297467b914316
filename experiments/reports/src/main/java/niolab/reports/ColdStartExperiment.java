package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import niolab.common.ServerCatalog;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.Comparison;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;

/**
 * exp-cold-start: the 100-request serial run with fresh JVMs on JDK 17, JDK 25, JDK 25 with
 * the AOT cache (both sides, the client's alone), and against a warmed server (with a cold, then a warm client); the time from
 * exec to the ready line of lt and of an mp pool; which classes a start loads, and from where
 * (experiments/scripts/exp-cold-start.sh).
 */
public final class ColdStartExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.05, "a start-up technique is worth its build step for 5% of the first seconds' rate or readiness");

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

    @Override
    public void generate(Results r, Report out) {
        Csv pairs = r.csv("pairs.csv");
        int rounds = pairs.numbers("round", "config", "jdk25").length;
        out.put("rounds", Integer.toString(rounds));
        double[][] byRound = new double[CONFIGS.length][];
        double[] qps = serial(r, pairs, rounds, byRound, out);
        jit(pairs, out);
        ratios(qps, out);
        out.put("jdk25_vs_jdk17", jdk25OverJdk17(qps, byRound[1], byRound[0]));
        sides(byRound, out);
        out.put("aot_target", aotClaim(byRound[2], byRound[1]));
        out.put("aot_client_target", aotClaim(byRound[5], byRound[1]));
        Interval cached = Claim.ratio(byRound[2], byRound[1]);
        if (!enoughRounds(byRound[2], byRound[1])) {
            out.put("aot_verdict", "This run cannot say whether the AOT cache speeds the run up: " + tooFew(byRound[2], byRound[1]));
        } else if (Comparison.verdict(cached, THRESHOLD.value()) == Comparison.Verdict.UNDECIDED
                || Comparison.verdict(cached, THRESHOLD.value()) == Comparison.Verdict.SAME) {
            out.put("aot_verdict", "This run cannot say whether the AOT cache speeds the run up: the rounds' ratios put it at "
                    + Md.ratio(cached, THRESHOLD.value()) + ", " + Comparison.describe(cached, Comparison.Quantity.RATE, THRESHOLD.value()));
        }
        ready(r.csv("ready.csv"), out);
        classes(r.csv("classes.csv"), out);
        skipped(r.csv("aot-skipped.csv"), out);
        load(pairs, r.csv("ready.csv"), r, out);
        String aot = r.text("aot.txt").trim();
        out.put("aot_caches", aot);
        picocli(Integer.parseInt(aot.replaceAll("(?s).*picocli class file version: (\\d+).*", "$1")), out);
    }

    /** The 100-request runs: a row per configuration, medians over the pairs; returns the QPS medians. */
    private static double[] serial(Results r, Csv pairs, int rounds, double[][] byRound, Report out) {
        double[] medianQps = new double[CONFIGS.length];
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> perRound = new ArrayList<>();
        long errors = 0;
        for (int c = 0; c < CONFIGS.length; c++) {
            double[] q = new double[rounds], p50 = new double[rounds], p99 = new double[rounds], server = new double[rounds];
            List<String> roundRow = new ArrayList<>(List.of(LABELS[c]));
            for (int i = 0; i < rounds; i++) {
                BenchReport b = r.bench("serial-" + CONFIGS[c] + "-" + (i + 1) + ".json");
                q[i] = Stats.median(b.column(Column.QPS));
                p50[i] = Stats.median(b.column(Column.P50));
                p99[i] = Stats.median(b.column(Column.P99));
                server[i] = Stats.median(b.serverCpuPerRun());
                errors += b.errors().total();
                roundRow.add(Md.f0(q[i]));
            }
            medianQps[c] = Stats.median(q);
            byRound[c] = q;
            double[] wall = pairs.numbers("client_wall_ms", "config", CONFIGS[c]);
            // /proc counts CPU in 10 ms ticks: per run, not per request, is the honest resolution
            rows.add(List.of(LABELS[c], Md.f0(medianQps[c]), range(q), Md.us(Stats.median(p50)), Md.us(Stats.median(p99)),
                    Md.f0(Stats.median(server) * REQUESTS / 1000), Md.f0(Stats.median(pairs.numbers("server_jit_ms", "config", CONFIGS[c]))),
                    Md.f0(Stats.median(wall))));
            perRound.add(roundRow);
        }
        out.put("serial_table", Md.table(List.of("configuration", "QPS (median)", "QPS (min–max)", "P50", "P99",
                "server CPU for the run (ms)", "of which its JIT compilers (ms)", "client JVM, exec to exit (ms)"), rows));
        List<String> header = new ArrayList<>(List.of("configuration"));
        for (int i = 1; i <= rounds; i++) header.add("round " + i);
        out.put("rounds_table", Md.table(header, perRound));
        out.put("serial_errors", Long.toString(errors));
        return medianQps;
    }

    /** The CPU the server's JIT compilers used during the 100 requests, with and without its cache (medians, ms). */
    static void jit(Csv pairs, Report out) {
        double[] plainMs = pairs.numbers("server_jit_ms", "config", "jdk25"), cachedMs = pairs.numbers("server_jit_ms", "config", "aot");
        double plain = Stats.median(plainMs), cached = Stats.median(cachedMs);
        out.put("jit_jdk25", Md.f0(plain) + " ms");
        out.put("jit_aot", Md.f0(cached) + " ms");
        // /proc's CPU comes in 10 ms ticks: a difference of less than one tick is not a difference it can show
        out.put("jit_verdict", !enoughRounds(plainMs, cachedMs)
                ? "this run cannot say whether the cache makes the server's JIT compilers work more or less during the run: "
                + tooFew(plainMs, cachedMs)
                : Math.abs(cached - plain) < TICK_MS
                ? "less than one 10 ms tick apart, which /proc cannot resolve: this run cannot say whether the cache makes the"
                + " server's JIT compilers work more or less during the run"
                : cached > plain
                ? "its JIT compilers worked more during the run with the cache than without it, on the one CPU the server"
                + " is pinned to, between the loop's requests. The cache brings the training's method profiles (JEP 515),"
                + " with which the JIT compiles early the methods they show hot: that repays itself over a long run,"
                + " not over a hundred requests"
                : "its JIT compilers did not work more during the run with the cache than without it");
    }

    /**
     * The client's cache alone against both caches: decided only when the two configurations'
     * ranges over the rounds do not overlap.
     */
    static void sides(double[][] q, Report out) {
        double[] clientOnly = q[5], both = q[2];
        String ranges = " (QPS " + range(clientOnly) + " against " + range(both) + " over the rounds)";
        out.put("aot_sides", !enoughRounds(clientOnly, both)
                ? "not told apart from the run with both caches: " + tooFew(clientOnly, both) + ranges
                : !disjoint(clientOnly, both)
                ? "not told apart from the run with both caches: their ranges overlap" + ranges + ", so this run cannot say"
                + " whether the server's cache costs the run or saves it"
                : Stats.median(clientOnly) > Stats.median(both)
                ? "faster than with both caches in every round" + ranges + ": here the server's cache costs the run more than it saves"
                : "slower than with both caches in every round" + ranges + ": the server's cache saves the run more than it costs");
    }

    /**
     * The lab's claim that the AOT cache makes the run at least 1.5× as fast as JDK 25 without
     * it: "the lab's claim of 1.5×: holds, 1.62× [1.55, 1.70]", from the rounds' paired ratios.
     */
    static String aotClaim(double[] cached, double[] plain) {
        Claim c = Claim.atLeast("aot", Claim.paired(cached, plain), cached.length, AOT_TARGET);
        return "the lab's claim of " + Md.f1(AOT_TARGET) + "× " + is(c) + c.words() + ": " + Md.f2(c.measured().estimate()) + "× " + c.interval()
                + " over " + cached.length + " paired rounds";
    }

    private static String is(Claim c) {
        return c.verdict() == ClaimVerdict.UNDECIDED ? "is " : "";
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

    /** The comparisons of the configurations' QPS medians, in {@link #CONFIGS} order. */
    static void ratios(double[] q, Report out) {
        double aot = q[2] / q[1];
        double clientOnly = q[5] / q[1];
        out.put("aot_client_vs_jdk25", Md.f2(clientOnly) + "×");

        out.put("aot_vs_jdk25", Md.f2(aot) + "×");

        out.put("warm_server_vs_jdk25", Md.f2(q[3] / q[1]) + "×");
        out.put("warm_vs_jdk25", Md.f2(q[4] / q[1]) + "×");
        out.put("aot_share_of_warm", Md.f0(q[2] / q[4] * 100) + "%");
        out.put("aot_verdict", aot > 1 ? "The AOT cache wins back part of the start" : "The AOT cache did not speed the run up here");
        out.put("cold_verdict", q[1] / q[4] < 0.5
                ? "With fresh JVMs, the 100-request run measures the JVMs' start more than the server"
                : "Fresh JVMs run the 100 requests at more than half the warm rate");
        // How much of the cold-to-warm gap warming the server alone closes; the rest is the client's start.
        double closed = (q[3] - q[1]) / (q[4] - q[1]) * 100;
        out.put("warm_split", closed <= 0
                ? "Warming the server alone does not raise the rate here: the gap is the client JVM's start"
                : "Warming the server alone closes " + Md.f0(closed) + "% of that gap; the other " + Md.f0(100 - closed)
                + "% is the client JVM's own start");
        out.put("side_verdict", closed < 50 ? "The client's cold start costs the run more than the server's"
                : "The server's cold start costs the run more than the client's");
        out.put("jdk25_share_of_warm", Md.f0(q[1] / q[4] * 100) + "%");
        out.put("warm_server_share_of_warm", Md.f0(q[3] / q[4] * 100) + "%");
        for (int c = 0; c < CONFIGS.length; c++) out.put("qps_" + CONFIGS[c].replace('-', '_'), Md.f0(q[c]));
    }

    /**
     * Exec to ready line, median (min–max), and the CPU spent by then, per start (lt; mp per
     * worker count, on the server's CPU and on every CPU) and JDK.
     */
    static void ready(Csv csv, Report out) {
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
        for (String s : pools(csv)) {
            double aot = Stats.median(readyValues(csv, "ready_ms", s, TARGET_WORKERS, "aot"));
            out.put("ready_" + s.replace('-', '_') + "_aot", Double.isNaN(aot) ? "(not measured)" : Md.f0(aot) + " ms");
            out.put("mp_target_" + s.replace('-', '_'), Double.isNaN(aot) ? "was not measured"
                    : mpClaim(readyValues(csv, "ready_ms", s, TARGET_WORKERS, "aot")));
        }
        double lt25 = Stats.median(readyValues(csv, "ready_ms", "lt", "1", "jdk25"));
        double ltAot = Stats.median(readyValues(csv, "ready_ms", "lt", "1", "aot"));
        out.put("lt_ready_aot_saving", Md.f0(lt25 - ltAot) + " ms (" + Md.f0((1 - ltAot / lt25) * 100) + "%)");
        double[] lt25Ms = readyValues(csv, "ready_ms", "lt", "1", "jdk25"), ltAotMs = readyValues(csv, "ready_ms", "lt", "1", "aot");
        boolean ltApart = disjoint(lt25Ms, ltAotMs);
        out.put("ready_verdict", !enoughRounds(lt25Ms, ltAotMs)
                ? "This run cannot say whether the cache shortens lt's start: " + tooFew(lt25Ms, ltAotMs)
                : !ltApart ? "This run cannot say whether the cache shortens lt's start: the ranges of its ready times"
                + " with and without it overlap"
                : ltAot < lt25 ? "The cache shortens a server's start (lt's ready times with and without it do not overlap)"
                : "The cache lengthened lt's start here (the ready times do not overlap)");
        double[] pinnedMs = readyValues(csv, "ready_ms", "mp", TARGET_WORKERS, "aot");
        double[] spreadMs = readyValues(csv, "ready_ms", unpinned(csv), TARGET_WORKERS, "aot");
        double pinned = Stats.median(pinnedMs), spread = Stats.median(spreadMs);
        double sooner = (1 - spread / pinned) * 100;
        boolean apart = pinnedMs.length > 0 && spreadMs.length > 0 && disjoint(pinnedMs, spreadMs);
        boolean enough = enoughRounds(pinnedMs, spreadMs);
        out.put("spread_verdict", !enough
                ? "given every CPU, the same pool's median ready time is " + Md.f0(Math.abs(sooner)) + "% " + (sooner >= 0 ? "shorter" : "longer")
                + ", but this run cannot tell the two apart: " + tooFew(pinnedMs, spreadMs)
                : !apart
                ? "given every CPU, the same pool's median ready time is " + Md.f0(Math.abs(sooner)) + "% " + (sooner >= 0 ? "shorter" : "longer")
                + ", but the ranges of its ready times on one CPU and on every CPU overlap: this run cannot tell them apart"
                : "given every CPU, the same pool is ready " + Md.f0(Math.abs(sooner)) + "% " + (sooner >= 0 ? "sooner" : "later")
                + " (the ranges do not overlap)");
        out.put("mp_cpu_verdict", !enough
                ? "This run cannot say whether an mp pool's ready time is bound by the CPUs its workers' starts get: "
                + tooFew(pinnedMs, spreadMs)
                : !apart
                ? "This run cannot say whether an mp pool's ready time is bound by the CPUs its workers' starts get: on one CPU and"
                + " on every CPU its ready times overlap"
                : sooner > 0 ? "An mp pool's ready time is bound by the CPUs its workers' starts get: on every CPU it is ready sooner,"
                + " the ranges apart"
                : "Given every CPU, an mp pool was ready later here, the ranges apart: its ready time is not bound by the CPUs alone");
    }

    /** The lab's claim that a pool of 4 with the cache is ready within 800 ms, on the interval of its ready times' median. */
    static String mpClaim(double[] readyMs) {
        Claim c = Claim.atMost("mp", Claim.medianDesign(readyMs), readyMs.length, MP_READY_TARGET_MS);
        return "the lab's claim of at most " + Md.f0(MP_READY_TARGET_MS) + " ms " + is(c) + c.words() + " (median " + Md.f0(c.measured().estimate())
                + " ms, 95% interval " + c.interval() + " over " + readyMs.length + " starts)";
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

    /** Whether the cache can hold picocli: JDK 25 leaves out classes older than version 50 (Java 6). */
    static void picocli(int classVersion, Report out) {
        out.put("picocli_version", Integer.toString(classVersion));
        if (classVersion < 50) {
            out.put("picocli_cached", "picocli's jar is compiled to class file version " + classVersion + "; the cache leaves"
                    + " out classes older than version 50 (\"old\", verified without stack maps) once they have been linked,"
                    + " those never linked, and the lab's classes implementing their interfaces (its option converters)."
                    + " The command-line parser therefore starts as cold with the cache as without it");
            out.put("picocli_verdict", "picocli's classes stay out of the cache");
        } else {
            out.put("picocli_cached", "picocli is built here from its published sources for Java 17 (class file version "
                    + classVersion + ", module picocli-java17), as its own jar is built for Java 5 (version 49), whose classes"
                    + " JDK 25's cache leaves out: so the cache holds the command-line parser like the lab's own classes");
            out.put("picocli_verdict", "picocli's classes are in the cache");
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

    /** The machine's 1-minute load average at the start of each measurement, against its core count. */
    private static void load(Csv pairs, Csv ready, Results r, Report out) {
        int cores = r.json("env.json", RunEnvironment.class).cores();
        double[] p = pairs.numbers("load1"), s = ready.numbers("load1");
        out.put("load_pairs", Md.f1(Stats.median(p)) + " (" + Md.f1(min(p)) + "–" + Md.f1(max(p)) + ")");
        out.put("load_ready", Md.f1(Stats.median(s)) + " (" + Md.f1(min(s)) + "–" + Md.f1(max(s)) + ")");
        out.put("cores", Integer.toString(cores));
        double busiest = Math.max(Stats.median(p), Stats.median(s));
        out.put("load_verdict", busiest > cores
                ? "more runnable tasks than CPUs: the machine was shared, and every figure here includes waiting for a CPU"
                : "no more runnable tasks than CPUs on the median");
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
