package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.common.ServerCatalog;
import niolab.common.CountersLine;
import niolab.common.results.BenchReport;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.ClaimVerdict;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;

/**
 * exp-mistakes: each {@code --mistake} beside the correct server in the scenario that shows its
 * symptom (experiments/scripts/exp-mistakes.sh): stranded connections, stalled bytes, wakeups,
 * stale reads, CPU share and log lines, resident memory over time, latency, wasted wakeups.
 * Those are counts of one run each; where the report compares a rate, a latency or CPU per
 * request, the two variants ran as the two servers of one {@code echo-bench compare}
 * ({@code compare-SCENARIO.json}, correct the baseline), and the comparison is a claim with the
 * interval of its paired rounds.
 */
public final class MistakesExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.05, "a mistake worth teaching costs at least 5% of rate or CPU per request; the lab's own are far larger");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    private static final String[] ARCHS = ServerCatalog.selection("mistakes").toArray(new String[0]);
    private static final String[] VARIANTS = {"correct", "broken"};
    private static final Pattern LOOP_COUNTERS = Pattern.compile("(?m)^\\[loop(\\d+)\\] counters: (.*)$");

    @Override
    public String name() {
        return "mistakes";
    }

    /** One server's run of a scenario: echo-bench's report of the load and the server's counters. */
    private record Run(BenchReport bench, ServerCounters counters) {
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

        String p50() {
            return latency(run().latencyUs().p50());
        }

        String p99() {
            return latency(run().latencyUs().p99());
        }

        String serverCpu() {
            Double us = run().cpuUsPerRequest().server();
            return us == null ? "–" : Md.f1(us);
        }
    }

    @Override
    public void generate(Results r, Report out) {
        List<List<String>> overview = new ArrayList<>();
        List<Claim> claims = new ArrayList<>();
        acceptOnce(r, out, overview);
        readOnce(r, out, overview);
        standingWrite(r, out, overview, claims);
        keysNotRemoved(r, out, overview, claims);
        target(r, out, claims);
        noAcceptBackoff(r, out, overview);
        unboundedOutput(r, out, overview);
        blockingOnLoop(r, out, overview, claims);
        nagle(r, out, overview, claims);
        herd(r, out, overview);
        noLinger(r, out, overview);
        out.put("overview", Md.table(List.of("mistake", "arch", "scenario", "broken", "correct"), overview));
        claims(r, claims, out);
        double load = Double.parseDouble(r.text("loadavg.txt").trim().split("\\s+")[0]);
        out.put("load_sentence", loadSentence(load, r.json("env.json", RunEnvironment.class).cores()));
    }

    /** Whether the machine was shared when the run began, by its 1-minute load average against its CPUs. */
    static String loadSentence(double load1, int cores) {
        return load1 > cores
                ? "The machine was not quiet: its 1-minute load average was " + Md.f2(load1) + " when the run began, on "
                + cores + " CPUs (other builds and tests)."
                : "The machine was quiet: its 1-minute load average was " + Md.f2(load1) + " when the run began, on "
                + cores + " CPUs.";
    }

    private static void acceptOnce(Results r, Report out, List<List<String>> overview) {
        List<List<String>> rows = new ArrayList<>();
        String[] echoed = new String[2];
        for (int i = 0; i < 2; i++) {
            Run run = Run.of(r, "accept-once", VARIANTS[i]);
            BenchReport.Run b = run.run();
            echoed[i] = Md.f0(b.requests()) + " of " + Md.f0(b.attempted());
            rows.add(List.of(VARIANTS[i], Md.f0(b.attempted()), Md.f0(b.requests()), Md.f0(b.errors().timeout()),
                    Md.f0(b.errors().total() - b.errors().timeout()), Md.f0(run.counters.get("accepts"))));
        }
        out.put("accept_once_table", Md.table(List.of("server", "connections", "echoed", "timed out (stranded)",
                "other errors", "server accepts"), rows));
        out.put("accept_once_broken", echoed[1]);
        out.put("accept_once_broken_accepts", count(Run.of(r, "accept-once", "broken").counters.get("accepts"), "connection"));
        out.put("accept_once_correct", echoed[0]);
        overview.add(List.of("`accept-once`", "et", "100 connections arrive while the loop is stopped: one listen edge",
                "echoed " + echoed[1], "echoed " + echoed[0]));
    }

    private static void readOnce(Results r, Report out, List<List<String>> overview) {
        List<List<String>> rows = new ArrayList<>();
        String[] complete = new String[2];
        for (int i = 0; i < 2; i++) {
            Run run = Run.of(r, "read-once", VARIANTS[i]);
            BenchReport.Run b = run.run();
            double sent = (double) b.attempted() * run.bench.config().size();
            complete[i] = Md.f0(b.requests()) + " of " + Md.f0(b.attempted()) + " echoes complete, "
                    + Md.f0(sent - run.counters.get("bytes_in")) + " of " + Md.f0(sent) + " bytes never read";
            rows.add(List.of(VARIANTS[i], Md.f0(b.attempted()), Md.f0(b.requests()), Md.f0(b.errors().timeout()), Md.f0(sent),
                    Md.f0(run.counters.get("bytes_in")), Md.f0(run.counters.get("bytes_out")), Md.f0(run.counters.get("reads"))));
        }
        out.put("read_once_table", Md.table(List.of("server", "requests", "complete", "timed out", "bytes sent",
                "bytes read by the server", "bytes echoed", "reads"), rows));
        out.put("read_once_broken", complete[1]);
        out.put("read_once_correct", complete[0]);
        overview.add(List.of("`read-once`", "et", "64-byte echoes, `--buffer-size 16`", complete[1], complete[0]));
    }

    private static void standingWrite(Results r, Report out, List<List<String>> overview, List<Claim> claims) {
        Csv idle = r.csv("standing-write-idle.csv");
        List<List<String>> rows = new ArrayList<>();
        String[] symptom = new String[2];
        double[] keys = new double[2];
        for (int i = 0; i < 2; i++) {
            Map<String, String> row = idle.row("variant", VARIANTS[i]);
            double seconds = Csv.number(row.get("seconds"));
            double selectsPerS = Csv.number(row.get("selects")) / seconds;
            double share = Csv.number(row.get("cpu_share"));
            keys[i] = Run.of(r, "standing-write", VARIANTS[i]).counters.eventsPerWait();
            symptom[i] = Md.f0(share * 100) + "% of a core, " + Md.f0(selectsPerS) + " selects/s while idle";
            rows.add(List.of(VARIANTS[i], Md.f0(share * 100) + "%", Md.f0(selectsPerS), Md.f2(keys[i])));
            out.put("standing_write_" + VARIANTS[i] + "_cpu", Md.f0(share * 100) + "%");
            out.put("standing_write_" + VARIANTS[i] + "_selects", Md.f0(selectsPerS));
        }
        out.put("standing_write_table", Md.table(List.of("server", "CPU while 50 connections idle", "selects/s while idle",
                "busy: keys handled per select"), rows));
        out.put("standing_write_busy", "the broken server's selects handled " + Md.f2(keys[1]) + " keys each, the correct one's "
                + Md.f2(keys[0]));
        CompareRun run = compare(r, "standing-write");
        out.put("standing_write_compare", section(run, "50 busy keep-alive connections"));
        out.put("standing_write_pair", paired(run, "50 busy connections"));
        if (run != null) addClaim(claims, cpuClaim(run, "`standing-write`, 50 busy connections: broken's CPU per request / correct's"));
        overview.add(List.of("`standing-write`", "lt", "50 idle connections for 5 s", symptom[1], symptom[0]));
    }

    private static void keysNotRemoved(Results r, Report out, List<List<String>> overview, List<Claim> claims) {
        List<List<String>> rows = new ArrayList<>();
        String[] symptom = new String[2];
        for (int i = 0; i < 2; i++) {
            Run run = Run.of(r, "keys-not-removed", VARIANTS[i]);
            symptom[i] = Md.f2(run.perRequest("reads_eagain")) + " empty reads per request, " + Md.f2(run.counters.eventsPerWait())
                    + " keys per select";
            rows.add(List.of(VARIANTS[i], Md.f0(run.served()), Md.f2(run.perRequest("reads")), Md.f2(run.perRequest("reads_eagain")),
                    Md.f2(run.counters.eventsPerWait())));
            out.put("keys_not_removed_" + VARIANTS[i] + "_eagain", Md.f2(run.perRequest("reads_eagain")));
            out.put("keys_not_removed_" + VARIANTS[i] + "_keys", Md.f2(run.counters.eventsPerWait()));
        }
        out.put("keys_not_removed_table", Md.table(List.of("server", "requests", "reads per request",
                "reads that found nothing, per request", "keys handled per select"), rows));
        CompareRun run = compare(r, "keys-not-removed");
        out.put("keys_not_removed_compare", section(run, "50 quiet connections held on each server, one busy connection"));
        out.put("keys_not_removed_pair", paired(run, "one busy connection beside 50 quiet ones"));
        if (run != null) {
            addClaim(claims, rateClaim(run, "`keys-not-removed`, one busy connection beside 50 quiet: broken's rate / correct's"));
            addClaim(claims, cpuClaim(run, "`keys-not-removed`, one busy connection beside 50 quiet: broken's CPU per request / correct's"));
        }
        overview.add(List.of("`keys-not-removed`", "lt", "50 quiet connections, one busy one: 20,000 echoes", symptom[1], symptom[0]));
    }

    /**
     * The lab's target: lt against {@code lt --mistake keys-not-removed} at 50 keep-alive
     * connections, called slower only when the rate ratio's whole interval lies below 1.
     */
    private static void target(Results r, Report out, List<Claim> claims) {
        CompareRun run = compare(r, "keys-not-removed-50");
        out.put("target_compare", section(run, "50 keep-alive connections, no quiet ones"));
        if (run == null) {
            out.put("target_sentence", "The lab's target (`keys-not-removed` called slower at 50 keep-alive connections) was "
                    + PREDATES + ".");
            return;
        }
        Claim slower = rateClaim(run, "the target: `keys-not-removed` at 50 keep-alive connections, broken's rate / correct's");
        if (slower == null) {
            out.put("target_sentence", "The lab's target (`keys-not-removed` called slower at 50 keep-alive connections) is undecided:"
                    + " too few rounds paired for an interval (" + run.rounds("broken", "correct") + ").");
            return;
        }
        claims.add(slower);
        out.put("target_sentence", "At 50 keep-alive connections and no quiet ones, the broken server's rate over the correct one's was "
                + run.words(slower.measured(), Comparison.Quantity.RATE) + " (" + slower.rounds() + " paired rounds): the lab's"
                + " target, that the mistake is called slower with an interval wholly below 1, " + verdict(slower) + " on this run.");
    }

    private static void noAcceptBackoff(Results r, Report out, List<List<String>> overview) {
        Csv csv = r.csv("no-accept-backoff.csv");
        List<List<String>> rows = new ArrayList<>();
        for (String arch : ARCHS) {
            String[] symptom = new String[2];
            for (int i = 0; i < 2; i++) {
                Map<String, String> row = csv.row("arch", arch, "variant", VARIANTS[i]);
                ServerCounters c = r.counters("counters-no-accept-backoff-" + arch + "-" + VARIANTS[i] + ".txt");
                BenchReport.Run after = r.bench("no-accept-backoff-" + arch + "-" + VARIANTS[i] + ".json").runs().get(0);
                double share = Csv.number(row.get("cpu_share"));
                symptom[i] = Md.f0(share * 100) + "% of a core, " + count(Csv.number(row.get("log_lines")), "log line");
                rows.add(List.of(arch, VARIANTS[i], Md.f0(share * 100) + "%", Md.f0(c.get("accept_failures")), row.get("log_lines"),
                        Md.f0(c.get("accepts")), Md.f0(after.requests()) + " of " + Md.f0(after.attempted())));
                out.put("no_accept_backoff_" + arch + "_" + VARIANTS[i], symptom[i]);
            }
            overview.add(List.of("`no-accept-backoff`", arch, "64 descriptors, 200 connections held 3 s", symptom[1], symptom[0]));
        }
        out.put("no_accept_backoff_table", Md.table(List.of("arch", "server", "CPU while out of descriptors", "accept failures",
                "log lines", "accepts", "served afterwards"), rows));
    }

    private static void unboundedOutput(Results r, Report out, List<List<String>> overview) {
        Csv rss = r.csv("unbounded-output.csv");
        Csv capped = r.csv("unbounded-output-capped.csv");
        SvgChart chart = new SvgChart("Server RSS while a client sends 1.5 GiB and never reads", "seconds", "RSS (MiB)");
        List<List<String>> rows = new ArrayList<>();
        for (String arch : ARCHS) {
            String[] symptom = new String[2];
            for (int i = 0; i < 2; i++) {
                String v = VARIANTS[i];
                double[] t = rss.numbers("t_s", "arch", arch, "variant", v);
                double[] mib = rss.numbers("rss_mib", "arch", arch, "variant", v);
                chart.series(arch + " " + v, t, mib);
                double peak = mib[Stats.best(mib, true)];
                ServerCounters c = r.counters("counters-unbounded-output-" + arch + "-" + v + ".txt");
                String caps = capped.row("arch", arch, "variant", v).get("capped");
                symptom[i] = "RSS " + Md.f0(mib[0]) + " → " + Md.f0(peak) + " MiB";
                rows.add(List.of(arch, v, Md.f0(mib[0]), Md.f0(peak), Md.f0(mib[mib.length - 1]),
                        Md.f0(c.get("bytes_in") / 1048576.0), caps.equals("0") ? "no" : "yes"));
                out.put("unbounded_output_" + arch + "_" + v, symptom[i]);
            }
            overview.add(List.of("`unbounded-output`", arch, "one client sends 1.5 GiB and never reads", symptom[1], symptom[0]));
        }
        out.put("unbounded_output_table", Md.table(List.of("arch", "server", "RSS at start (MiB)", "peak RSS (MiB)",
                "RSS after 8 s (MiB)", "MiB read from the client", "closed at the cap"), rows));
        out.chart("mistakes-unbounded-output-rss.svg", chart.render());
    }

    /** A loop that sleeps 1 ms per request serves at most this many requests a second. */
    static final double BLOCKING_CAP = 1000;

    private static void blockingOnLoop(Results r, Report out, List<List<String>> overview, List<Claim> claims) {
        List<List<String>> rows = new ArrayList<>();
        List<String> sections = new ArrayList<>(), pairs = new ArrayList<>(), caps = new ArrayList<>(), events = new ArrayList<>();
        for (String arch : ARCHS) {
            CompareRun run = compare(r, "blocking-on-loop-" + arch);
            String[] symptom = new String[2];
            double[] perWait = new double[2];
            for (int i = 0; i < 2; i++) {
                perWait[i] = Run.of(r, "blocking-on-loop-" + arch, VARIANTS[i]).counters.eventsPerWait();
                symptom[i] = Md.f2(perWait[i]) + " events per wait" + (run == null ? "" : ", " + medians(run, VARIANTS[i]));
                rows.add(List.of(arch, VARIANTS[i], Md.f2(perWait[i])));
                out.put("blocking_on_loop_" + arch + "_" + VARIANTS[i], symptom[i]);
            }
            events.add(arch + ": " + Md.f2(perWait[1]) + " broken, " + Md.f2(perWait[0]) + " correct");
            sections.add(section(run, arch + ", 20 keep-alive connections"));
            pairs.add(arch + ": " + (run == null ? PREDATES : medians(run, "broken") + " against " + medians(run, "correct") + "; rate "
                    + pairWords(run, CompareRun.RATE, Comparison.Quantity.RATE)));
            double[] rates = run == null ? new double[0] : run.values("broken", CompareRun.RATE);
            if (rates.length >= MedianInterval.MIN_ROUNDS) {
                Claim cap = Claim.atMost("`blocking-on-loop` (" + arch + "): broken's median rate, req/s", Claim.medianDesign(rates), rates.length,
                        BLOCKING_CAP);
                claims.add(cap);
                caps.add("a median of " + Md.f0(cap.measured().estimate()) + " req/s on " + arch + ", where the claim of at most "
                        + Md.f0(BLOCKING_CAP) + " " + verdict(cap));
            }
            overview.add(List.of("`blocking-on-loop`", arch, "20 keep-alive connections", symptom[1], symptom[0]));
        }
        out.put("blocking_on_loop_table", Md.table(List.of("arch", "server", "events per wait"), rows));
        out.put("blocking_on_loop_compare", String.join("\n\n", sections));
        out.put("blocking_on_loop_pair", String.join("; ", pairs));
        out.put("blocking_on_loop_events", String.join("; ", events));
        out.put("blocking_on_loop_cap", caps.isEmpty() ? "its rates " + (compare(r, "blocking-on-loop-lt") == null ? PREDATES
                : "served in too few rounds for an interval") : String.join(" and ", caps));
    }

    private static void nagle(Results r, Report out, List<List<String>> overview, List<Claim> claims) {
        List<List<String>> rows = new ArrayList<>();
        List<String> sections = new ArrayList<>(), pairs = new ArrayList<>(), answers = new ArrayList<>();
        for (String arch : ARCHS) {
            CompareRun run = compare(r, "nagle-" + arch);
            String[] symptom = new String[2];
            for (int i = 0; i < 2; i++) {
                double writes = Run.of(r, "nagle-" + arch, VARIANTS[i]).perRequest("writes");
                symptom[i] = Md.f2(writes) + " writes per response" + (run == null ? "" : ", " + medians(run, VARIANTS[i]));
                rows.add(List.of(arch, VARIANTS[i], Md.f2(writes)));
                out.put("nagle_" + arch + "_" + VARIANTS[i], symptom[i]);
            }
            sections.add(section(run, arch + ", HTTP /ping, one keep-alive connection"));
            pairs.add(arch + ": " + (run == null ? PREDATES : "p50 " + medianP50(run, "broken") + " against " + medianP50(run, "correct")
                    + ", the paired ratio of p50s " + pairWords(run, CompareRun.P50, Comparison.Quantity.LATENCY)));
            double[] p50ms = run == null ? new double[0] : run.values("broken", CompareRun.P50);
            if (p50ms.length >= MedianInterval.MIN_ROUNDS) {
                for (int i = 0; i < p50ms.length; i++) p50ms[i] /= 1000;
                Claim stall = Claim.atLeast("`nagle` (" + arch + "): broken's median p50, ms, at least Linux's shortest delayed ACK",
                        Claim.medianDesign(p50ms), p50ms.length, DELAYED_ACK_MS);
                claims.add(stall);
                answers.add("p50 " + medianP50(run, "broken") + " against " + medianP50(run, "correct") + " on " + arch
                        + ", where the claim of at least " + Md.f0(DELAYED_ACK_MS) + " ms " + verdict(stall));
            }
            overview.add(List.of("`nagle`", arch, "HTTP /ping, one keep-alive connection", symptom[1], symptom[0]));
        }
        out.put("nagle_table", Md.table(List.of("arch", "server", "writes per response"), rows));
        out.put("nagle_compare", String.join("\n\n", sections));
        out.put("nagle_pair", String.join("; ", pairs));
        out.put("nagle_answer", answers.isEmpty() ? "its latencies " + (compare(r, "nagle-lt") == null ? PREDATES
                : "served in too few rounds for an interval") : String.join("; ", answers));
    }

    /** Linux's shortest delayed-ACK timeout (TCP_DELACK_MIN, HZ/25): a response held for an ACK waits at least this. */
    static final double DELAYED_ACK_MS = 40;

    /** What a compare's values say when the results predate it. */
    static final String PREDATES = "not measured, as these results predate the paired comparison that `make exp-mistakes` now runs";

    /** The scenario's compare of the correct and the broken server (correct the baseline), or null when the results predate it. */
    static CompareRun compare(Results r, String scenario) {
        String file = "compare-" + scenario + ".json";
        return r.has(file) ? CompareRun.of(r, file, THRESHOLD) : null;
    }

    /** The compare's design and table under {@code label}, or a line saying the results predate it. */
    private static String section(CompareRun run, String label) {
        return run == null ? "_" + label + ": " + PREDATES + "._" : run.section(label);
    }

    /** "Paired with the correct server in one compare (50 busy connections): rate ...; CPU per request ...". */
    private static String paired(CompareRun run, String load) {
        if (run == null) return "The paired comparison of rates and CPU per request (" + load + ") was " + PREDATES + ".";
        return "Paired with the correct server in one compare (" + load + "), the broken server's rate over the correct one's was "
                + pairWords(run, CompareRun.RATE, Comparison.Quantity.RATE) + ", and its CPU per request "
                + pairWords(run, CompareRun.CPU, Comparison.Quantity.COST) + ".";
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

    /** The claim that the broken server is slower: its rate ratio's interval wholly below 1. */
    private static Claim rateClaim(CompareRun run, String statement) {
        return ratioClaim(run, statement, CompareRun.RATE, false);
    }

    /** The claim that the broken server costs more CPU per request: the ratio's interval wholly above 1. */
    private static Claim cpuClaim(CompareRun run, String statement) {
        return ratioClaim(run, statement, CompareRun.CPU, true);
    }

    /** Null when too few rounds pair for an interval (the compare's table says so). */
    private static Claim ratioClaim(CompareRun run, String statement, int quantity, boolean above) {
        ForkInterval ratio = run.forkRatio("broken", "correct", quantity);
        int rounds = run.rounds("broken", "correct");
        if (ratio == null) return null;
        return (above ? Claim.atLeast(statement, ratio, rounds, 1.0) : Claim.atMost(statement, ratio, rounds, 1.0));
    }

    /** "holds", "fails" or "is undecided at this run's precision": a claim's verdict as a sentence's verb. */
    private static String verdict(Claim claim) {
        return (claim.verdict() == ClaimVerdict.UNDECIDED ? "is " : "") + claim.words();
    }

    private static void addClaim(List<Claim> claims, Claim claim) {
        if (claim != null) claims.add(claim);
    }

    /** The comparisons' claims as a table, with their tally, or a line saying the results predate them. */
    private static void claims(Results r, List<Claim> claims, Report out) {
        if (claims.isEmpty()) {
            out.put("claims_table", "_The rates, latencies and CPU per request of these results are " + PREDATES + "._");
            out.put("claims_summary", "Its comparisons of rates, latencies and CPU per request are " + PREDATES);
            out.put("claims_precision", Claim.precision(Integer.MAX_VALUE));
            return;
        }
        Claim.report(claims, "figure", out);
        CompareRun run = compare(r, "blocking-on-loop-lt");
        if (run != null) {
            CompareRun.forkPrecision(out, run.forks(), run.roundsPerFork(), "The claims on one server's own median (the blocking cap,"
                    + " nagle's p50) pool its rounds over the forks:");
        }
    }

    private static void herd(Results r, Report out, List<List<String>> overview) {
        Csv csv = r.csv("herd.csv");
        List<List<String>> rows = new ArrayList<>();
        for (String arch : ARCHS) {
            String[] symptom = new String[2];
            for (Map<String, String> row : csv.rows()) {
                if (!row.get("arch").equals(arch)) continue;
                String v = row.get("variant");
                String text = r.text("counters-herd-" + arch + "-" + v + ".txt");
                List<String> accepts = new ArrayList<>();
                long empty = 0;
                Matcher m = LOOP_COUNTERS.matcher(text);
                while (m.find()) {
                    Map<String, Long> loop = CountersLine.parse(m.group(2));
                    accepts.add(Long.toString(loop.getOrDefault("accepts", 0L)));
                    empty += loop.getOrDefault("empty_accepts", 0L);
                }
                double connections = Csv.number(row.get("connections"));
                double wakeups = Csv.number(row.get("loop_wakeups")) / connections;
                String listeners = v.equals("correct") ? "one per loop (SO_REUSEPORT)"
                        : v.equals("broken") ? "one for all loops" : "one for all loops, EPOLLEXCLUSIVE";
                rows.add(List.of(arch, v, listeners, String.join(" / ", accepts), Md.f0(empty), Md.f2(wakeups)));
                String s = Md.f0(empty) + " empty accepts, " + Md.f2(wakeups) + " loop wakeups per connection";
                out.put("herd_" + arch + "_" + v, s);
                out.put("herd_" + arch + "_" + v + "_accepts", String.join(" / ", accepts));
                if (v.equals("correct")) symptom[0] = s;
                if (v.equals("broken")) symptom[1] = s;
            }
            overview.add(List.of("`herd`", arch, "`--loops 4`, 2000 short connections one at a time", symptom[1], symptom[0]));
        }
        double lt = correctWakeups(csv, "lt"), et = correctWakeups(csv, "et");
        out.put("herd_correct_wakeups", Md.f2(lt) + " (lt) and " + Md.f2(et) + " (et)");
        // a connection brings three events to its loop: its accept, its request, its close
        out.put("herd_correct_events", Math.max(lt, et) < 3
                ? "fewer than its three events (accept, request, close), so one wakeup served more than one of them"
                : "at least one per event (accept, request, close)");
        out.put("herd_table", Md.table(List.of("arch", "server", "listening sockets", "accepts per loop",
                "empty accepts (all loops)", "loop-thread wakeups per connection"), rows));
        out.put("herd_more", herdMore(wakeups(csv, "lt", "broken"), lt, wakeups(csv, "et", "broken"), et));
    }

    /** What the no-linger values say when the results predate the scenario. */
    static final String NOT_MEASURED = "not measured in this run";

    /**
     * no-linger: per arch, server and head size, of the tries (one line each in no-linger.csv),
     * how many had the client's write fail, how many never let it read its 431, how many a client
     * that stops at its first error never saw the 431 in, and how many ended in a
     * reset instead of end of stream.
     */
    static void noLinger(Results r, Report out, List<List<String>> overview) {
        if (!r.has("no-linger.csv")) {
            out.put("no_linger_table", "_" + NOT_MEASURED + ": its results predate the scenario; `make exp-mistakes` measures it._");
            for (String arch : ARCHS) {
                for (String v : VARIANTS) out.put("no_linger_" + arch + "_" + v, NOT_MEASURED);
            }
            return;
        }
        Csv csv = r.csv("no-linger.csv");
        List<List<String>> rows = new ArrayList<>();
        for (String arch : ARCHS) {
            String[] symptom = new String[2];
            for (int i = 0; i < 2; i++) {
                String v = VARIANTS[i];
                // head bytes -> tries, writes failed, 431s read, 431s read after a whole write, resets
                Map<Long, double[]> bySize = new java.util.TreeMap<>();
                for (Map<String, String> row : csv.rows()) {
                    if (!row.get("arch").equals(arch) || !row.get("variant").equals(v)) continue;
                    double[] t = bySize.computeIfAbsent((long) Csv.number(row.get("head_bytes")), k -> new double[5]);
                    boolean failed = Csv.number(row.get("write_failed")) > 0;
                    boolean saw = Csv.number(row.get("saw_431")) > 0;
                    t[0] += Csv.number(row.get("tries"));
                    t[1] += failed ? 1 : 0;
                    t[2] += saw ? 1 : 0;
                    t[3] += saw && !failed ? 1 : 0;
                    t[4] += Csv.number(row.get("then_reset"));
                }
                if (bySize.isEmpty()) continue;
                double tries = 0, missed = 0, resets = 0;
                for (Map.Entry<Long, double[]> e : bySize.entrySet()) {
                    double[] t = e.getValue();
                    rows.add(List.of(arch, v, headSize(e.getKey()), Md.f0(t[0]), Md.f0(t[1]), Md.f0(t[0] - t[2]),
                            Md.f0(t[0] - t[3]) + " (" + Md.f0(100 * (t[0] - t[3]) / t[0]) + "%)", Md.f0(t[4])));
                    tries += t[0];
                    missed += t[0] - t[3];
                    resets += t[4];
                }
                long lingered = r.has("counters-no-linger-" + arch + "-" + v + ".txt")
                        ? r.counters("counters-no-linger-" + arch + "-" + v + ".txt").get("linger_closes") : 0;
                symptom[i] = "431 never seen (by a client that stops at its first error) in " + Md.f0(missed) + " of " + Md.f0(tries) + " tries ("
                        + Md.f0(100 * missed / tries) + "%), " + Md.f0(resets) + " ended by a reset, " + count(lingered, "lingering close");
                out.put("no_linger_" + arch + "_" + v, symptom[i]);
            }
            if (symptom[0] != null && symptom[1] != null) {
                overview.add(List.of("`no-linger`", arch, "HTTP heads of 9 KB to 1 MB, each written whole before reading", symptom[1], symptom[0]));
            }
        }
        out.put("no_linger_table", Md.table(List.of("arch", "server", "head", "tries", "write failed", "431 never read",
                "431 never seen by a client that stops at its first error", "ended by a reset"), rows));
    }

    /** {@code 20 KB}, {@code 1 MB}: the head sizes as the scenario names them (10^3 bytes). */
    static String headSize(long bytes) {
        return bytes >= 1_000_000 ? Md.f0(bytes / 1e6) + " MB" : Md.f0(bytes / 1e3) + " KB";
    }

    /** Loop-thread wakeups per connection of the correct server (one listener per loop). */
    private static double correctWakeups(Csv herd, String arch) {
        return wakeups(herd, arch, "correct");
    }

    private static double wakeups(Csv herd, String arch, String variant) {
        Map<String, String> row = herd.row("arch", arch, "variant", variant);
        return Csv.number(row.get("loop_wakeups")) / Csv.number(row.get("connections"));
    }

    /**
     * Whether the shared listener woke the loops more often per connection than a listener per
     * loop, on both archs, as this run's counts show (one run each: a count, not an interval).
     */
    static String herdMore(double ltShared, double ltOwn, double etShared, double etOwn) {
        String counts = " (" + Md.f2(ltShared) + " against " + Md.f2(ltOwn) + " wakeups per connection on lt, " + Md.f2(etShared)
                + " against " + Md.f2(etOwn) + " on et)";
        if (ltShared > ltOwn && etShared > etOwn) return "woke the loops more often per connection than a listener per loop" + counts;
        if (ltShared <= ltOwn && etShared <= etOwn) return "woke the loops no more often per connection than a listener per loop" + counts;
        return "woke the loops more often per connection than a listener per loop on one arch only" + counts;
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
