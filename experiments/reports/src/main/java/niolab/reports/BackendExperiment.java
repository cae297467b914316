package niolab.reports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import niolab.common.ServerCatalog;
import niolab.common.stats.Comparison;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.Interval;

/**
 * exp-backend: {@code /ping} (memory only) and {@code /healthz} (two Redis GETs) on lt and et
 * for each backend posture (loop, pool, blocking) and on vt (thread), with Redis on the
 * server's core; the servers' counters (round trips, wake-ups); redis-benchmark GET as the
 * ceiling; the lab's claims about the postures checked on the run.
 */
public final class BackendExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05, "a backend's path is worth {size} of rate; the hop swamps less");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    /** The event loops, each run in every posture of {@link #MODES}. */
    private static final String[] ARCHS = ServerCatalog.selection("backend").toArray(new String[0]);
    private static final String[] MODES = {"loop", "pool", "blocking"};
    /** Every server of the run: an event loop in a posture, or vt in its one. */
    private static final List<Server> SERVERS = servers();
    private static final String[] PATHS = {"/ping", "/healthz"};
    /** GETs per /healthz: what turns a /healthz rate into a Redis command rate. */
    private static final int GETS = 2;
    /** The ceiling's name, followed by its pipeline depth: redis-benchmark's GET alone on Redis's core. */
    private static final String REDIS_GET = "redis-benchmark GET -P ";

    private record Server(String arch, String mode) {
    }

    private static List<Server> servers() {
        List<Server> all = new ArrayList<>();
        for (String a : ARCHS) {
            for (String m : MODES) all.add(new Server(a, m));
        }
        all.add(new Server("vt", "thread"));
        return List.copyOf(all);
    }

    @Override
    public String name() {
        return "backend";
    }

    /** One server's round on one path (samples.csv). */
    record Sample(String arch, String mode, String path, double rate, double p99Us, double serverCpu, double redisCpu, double errors) {
    }

    /** One redis-benchmark GET round: its pipeline depth, rate and Redis CPU per GET. */
    record Get(String pipeline, double rate, double redisCpu) {
    }

    /**
     * The run: its settings, Redis's version, the servers' rounds in file order, each server's
     * counters, redis-benchmark's rounds, the compare runs by path (none where the results
     * predate them) and the A/A pair (null where none).
     */
    record Data(Map<String, String> settings, String redisVersion, List<Sample> samples, Map<Server, ServerCounters> counters,
            List<Get> redisBenchmark, Map<String, CompareRun> compared, Interval aa) {
        /** {@code f} of every round of a server on a path, in file order. */
        double[] of(ToDoubleFunction<Sample> f, String arch, String mode, String path) {
            List<Sample> match = new ArrayList<>();
            for (Sample x : samples) {
                if (x.arch.equals(arch) && x.mode.equals(mode) && x.path.equals(path)) match.add(x);
            }
            double[] v = new double[match.size()];
            for (int i = 0; i < v.length; i++) v[i] = f.applyAsDouble(match.get(i));
            return v;
        }

        double median(ToDoubleFunction<Sample> f, String arch, String mode, String path) {
            return Stats.median(of(f, arch, mode, path));
        }

        double[] gets(ToDoubleFunction<Get> f, String pipeline) {
            return redisBenchmark.stream().filter(g -> g.pipeline.equals(pipeline)).mapToDouble(f).toArray();
        }
    }

    /** One architecture's /healthz median rate in each posture of {@link #MODES}, and the highest. */
    record Postures(String arch, double[] rates, int best) {
    }

    /**
     * What the run found: how much the rate and the core time per /healthz moved between rounds
     * (medians over the servers), each architecture's postures, the best GET rate of a loop
     * posture against redis-benchmark's ceilings (pipeline 1 and the run's depth), and the claims.
     */
    record Findings(Data data, double rateSpread, double coreSpread, List<Postures> postures, double[] ceilings, double bestGets,
            List<Claim> claims) {
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static Data load(Results r) {
        List<Sample> samples = new ArrayList<>();
        for (Map<String, String> x : r.csv("samples.csv").rows()) {
            samples.add(new Sample(x.get("arch"), x.get("mode"), x.get("path"), Csv.number(x.get("requests_per_s")), Csv.number(x.get("p99_us")),
                    Csv.number(x.get("server_cpu_us_per_req")), Csv.number(x.get("redis_cpu_us_per_req")), Csv.number(x.get("errors"))));
        }
        Map<Server, ServerCounters> counters = new LinkedHashMap<>();
        for (Server s : SERVERS) counters.put(s, r.counters("counters-" + s.arch() + "-" + s.mode() + ".txt"));
        List<Get> gets = new ArrayList<>();
        for (Map<String, String> x : r.csv("redis-benchmark.csv").rows()) {
            gets.add(new Get(x.get("pipeline"), Csv.number(x.get("requests_per_s")), Csv.number(x.get("redis_cpu_us_per_req"))));
        }
        Map<String, CompareRun> compared = new LinkedHashMap<>();
        if (r.has("compare-healthz.json")) {
            for (String path : PATHS) compared.put(path, CompareRun.of(r, "compare-" + key(path) + ".json", THRESHOLD));
        }
        return new Data(r.csv("settings.csv").rows().get(0), r.text("redis-version.txt").trim(), samples, counters, gets, compared, r.aa());
    }

    static Findings analyse(Data d) {
        double[] rates = new double[SERVERS.size()], cores = new double[SERVERS.size()];
        for (int i = 0; i < rates.length; i++) {
            Server s = SERVERS.get(i);
            rates[i] = Stats.relativeSpread(d.of(Sample::rate, s.arch(), s.mode(), "/healthz"));
            cores[i] = Stats.relativeSpread(coreMicrosByRound(d, s.arch(), s.mode()));
        }
        List<Postures> postures = new ArrayList<>();
        for (String a : ARCHS) {
            double[] v = new double[MODES.length];
            for (int i = 0; i < MODES.length; i++) v[i] = d.median(Sample::rate, a, MODES[i], "/healthz");
            postures.add(new Postures(a, v, Stats.best(v, true)));
        }
        double[] ceilings = {Stats.median(d.gets(Get::rate, "1")), Stats.median(d.gets(Get::rate, d.settings.get("depth")))};
        double bestGets = 0;
        for (String a : ARCHS) bestGets = Math.max(bestGets, GETS * d.median(Sample::rate, a, "loop", "/healthz"));
        return new Findings(d, Stats.median(rates), Stats.median(cores), postures, ceilings, bestGets, claims(d));
    }

    static void render(Findings f, Report out) {
        Data d = f.data;
        Map<String, String> s = d.settings;
        out.put("duration", s.get("duration")).put("warmup", s.get("warmup")).put("rounds", s.get("rounds"))
                .put("connections", s.get("connections")).put("depth", s.get("depth"))
                .put("load_before", s.get("load_before")).put("load_after", s.get("load_after"));
        out.put("redis_version", d.redisVersion);
        for (String path : PATHS) out.put(key(path) + "_table", pathTable(d, path));
        out.put("counters_table", countersTable(d));
        out.put("rate_spread", Md.f0(f.rateSpread * 100) + "%");
        out.put("core_spread", Md.f0(f.coreSpread * 100) + "%");
        out.put("core_steadier", f.coreSpread < f.rateSpread ? "yes" : "no");
        out.put("postures_table", posturesTable(f, out));
        out.put("vt_table", vtTable(d, out));
        out.put("core_table", coreTable(d, out));
        out.put("dilution_table", dilutionTable(d, out));
        ceiling(f, out);
        comparisons(d, out);
        Claim.report(f.claims, "measured ratio", out);
        CompareRun healthz = d.compared.get("/healthz");
        forkedClaims(healthz == null ? 0 : healthz.forks(), healthz == null ? 0 : healthz.roundsPerFork(), out);
        aaReading(d.aa, out);
    }

    /**
     * Whether the posture claims come from a compare run in {@code forks} forks, 2 or more
     * ({@code forked_claims}; 0 without a compare run): then the template describes their fork
     * intervals and, apart, the part 2 claims' own rounds, each interval as it was computed.
     */
    static void forkedClaims(int forks, int roundsPerFork, Report out) {
        boolean forked = forks >= 2;
        out.put("forked_claims", forked);
        if (!forked) return;
        out.put("fork_precision", CompareRun.forkPrecision(forks, roundsPerFork));
        out.put("claims_rounds_lower", CompareRun.lowerFirst(out.values.get("claims_rounds")));
    }

    /**
     * What the run's own A/A pair (lt against lt) says: a check against the declared threshold,
     * which it does not set; the template says it.
     */
    static void aaReading(Interval aa, Report out) {
        out.put("aa", aa == null ? "no" : "yes");
        out.put("threshold_percent", THRESHOLD.percent());
        if (aa != null) out.put("aa_check", THRESHOLD.aaCheck(aa));
    }

    /** Part 1's tables, one compare per path, where the results have them (the template says when they predate them). */
    private static void comparisons(Data d, Report out) {
        out.put("compared", d.compared.isEmpty() ? "no" : "yes");
        out.put("cmp_warmup", d.settings.get("cmp_warmup"));
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, CompareRun> c : d.compared.entrySet()) sb.append("\n\n").append(c.getValue().section(c.getKey()));
        out.put("compare_sections", sb.toString());
    }

    private static String key(String path) {
        return path.substring(1);
    }

    /** One row per architecture and posture: medians over the rounds, and the range of the rate. */
    private static String pathTable(Data d, String path) {
        List<List<String>> rows = new ArrayList<>();
        for (Server s : SERVERS) {
            String a = s.arch();
            String m = s.mode();
            double[] v = d.of(Sample::rate, a, m, path);
            rows.add(List.of(a, m, Md.f0(Stats.median(v)), Md.f0(v[Stats.best(v, false)]) + " – " + Md.f0(v[Stats.best(v, true)]),
                    Md.f0(d.median(Sample::p99Us, a, m, path)), Md.f1(d.median(Sample::serverCpu, a, m, path)),
                    Md.f1(d.median(Sample::redisCpu, a, m, path)), Md.f0(Stats.sum(d.of(Sample::errors, a, m, path)))));
        }
        return Md.table(List.of("arch", "posture", "req/s (median)", "range over rounds", "p99 µs", "server CPU µs/req",
                "Redis CPU µs/req", "errors"), rows);
    }

    /** What each server counted over the whole run (warm-ups included): the ratios are what matter. */
    private static String countersTable(Data d) {
        List<List<String>> rows = new ArrayList<>();
        for (Server s : SERVERS) {
            ServerCounters c = d.counters.get(s);
            double calls = c.get("backend_calls");
            double trips = c.get("backend_round_trips");
            rows.add(List.of(s.arch(), s.mode(), Md.f0(calls), Md.f2(trips / calls), Md.f2(GETS * calls / trips),
                    s.mode().equals("pool") ? Md.f2(c.get("wakeups") / calls) : "–", Md.f0(c.get("backend_failures"))));
        }
        return Md.table(List.of("arch", "posture", "backend calls", "round trips per /healthz", "GETs per round trip",
                "wake-ups per hand-off", "503/504 answers"), rows);
    }

    /** /healthz: the loop posture against the two blocking ones, per architecture; the winner line. */
    private static String posturesTable(Findings f, Report out) {
        List<List<String>> rows = new ArrayList<>();
        StringBuilder winners = new StringBuilder();
        for (Postures p : f.postures) {
            double[] v = p.rates;
            rows.add(List.of(p.arch, Md.f0(v[0]), Md.f0(v[1]), Md.f0(v[2]), Md.f2(v[0] / v[1]), Md.f2(v[0] / v[2])));
            if (winners.length() > 0) winners.append("; ");
            winners.append(p.arch).append(": ").append(MODES[p.best]).append(" (").append(Md.versus(v, p.best, MODES)).append(')');
        }
        out.put("winners", winners.toString());
        return Md.table(List.of("arch", "loop req/s", "pool req/s", "blocking req/s", "loop / pool", "loop / blocking"), rows);
    }

    /**
     * vt's posture against every event-loop posture on /healthz, in rate and in core time: the
     * blocking client on a virtual thread, beside the same client on the loop or in a pool, and
     * beside the loop's own pipelining client.
     */
    private static String vtTable(Data d, Report out) {
        double vt = d.median(Sample::rate, "vt", "thread", "/healthz");
        double vtCore = coreMicros(d, "vt", "thread");
        List<List<String>> rows = new ArrayList<>();
        StringBuilder summary = new StringBuilder();
        for (String a : ARCHS) {
            for (String m : MODES) {
                double v = d.median(Sample::rate, a, m, "/healthz");
                double core = coreMicros(d, a, m);
                rows.add(List.of(a, m, Md.f0(v), Md.f2(vt / v), Md.f1(core), Md.f2(vtCore / core)));
                if (a.equals("lt")) summary.append(summary.length() == 0 ? "" : ", ").append(Md.f2(vt / v)).append("× lt ").append(m);
            }
        }
        out.put("vt_healthz", Md.f0(vt)).put("vt_summary", summary.toString());
        return Md.table(List.of("arch", "posture", "/healthz req/s", "vt thread / this", "core µs per /healthz",
                "vt thread's core time / this"), rows);
    }

    /**
     * What a /healthz costs the shared core: the server's CPU plus Redis's, and how many such
     * requests one core could serve if nothing else ran on it. Unlike a rate, this holds on a
     * busy machine: the work per request does not depend on who else runs.
     */
    private static String coreTable(Data d, Report out) {
        List<List<String>> rows = new ArrayList<>();
        StringBuilder summary = new StringBuilder();
        String arch = null;
        for (Server s : SERVERS) {
            String a = s.arch();
            String m = s.mode();
            boolean first = !a.equals(arch);
            if (first) summary.append(arch == null ? "" : "; ").append(a).append(':');
            arch = a;
            double core = coreMicros(d, a, m);
            summary.append(first ? " " : ", ").append(m).append(' ').append(Md.f1(core)).append(" µs");
            // vt has no loop posture: its comparison is the table of its own.
            String vsLoop = a.equals("vt") ? "–" : Md.f2(core / coreMicros(d, a, "loop"));
            rows.add(List.of(a, m, Md.f1(d.median(Sample::serverCpu, a, m, "/healthz")),
                    Md.f1(d.median(Sample::redisCpu, a, m, "/healthz")), Md.f1(core), Md.f0(1e6 / core), vsLoop));
        }
        out.put("core_summary", summary.toString());
        return Md.table(List.of("arch", "posture", "server CPU µs", "Redis CPU µs", "core µs per /healthz",
                "one core's /healthz per s", "core time / loop's"), rows);
    }

    /** Server and Redis CPU µs per /healthz, one per round. */
    private static double[] coreMicrosByRound(Data d, String arch, String mode) {
        double[] server = d.of(Sample::serverCpu, arch, mode, "/healthz");
        double[] redis = d.of(Sample::redisCpu, arch, mode, "/healthz");
        double[] v = new double[server.length];
        for (int i = 0; i < v.length; i++) v[i] = server[i] + redis[i];
        return v;
    }

    /** Median server plus median Redis CPU per /healthz. */
    private static double coreMicros(Data d, String arch, String mode) {
        return d.median(Sample::serverCpu, arch, mode, "/healthz") + d.median(Sample::redisCpu, arch, mode, "/healthz");
    }

    /** The gap between the architectures on /ping and on /healthz, per posture: how much the backend dilutes it. */
    private static String dilutionTable(Data d, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (String m : MODES) rows.add(gapRow("et / lt, " + m, d, "et", m, "lt", m));
        rows.add(gapRow("vt thread / lt pool", d, "vt", "thread", "lt", "pool"));
        rows.add(gapRow("vt thread / lt loop", d, "vt", "thread", "lt", "loop"));
        double share = d.median(Sample::rate, "lt", "loop", "/healthz") / d.median(Sample::rate, "lt", "loop", "/ping");
        out.put("loop_healthz_share", Md.f2(share));
        double[] busy = new double[SERVERS.size()];
        int k = 0;
        for (Server s : SERVERS) {
            busy[k++] = d.median(Sample::rate, s.arch(), s.mode(), "/ping") * d.median(Sample::serverCpu, s.arch(), s.mode(), "/ping") / 1e6;
        }
        out.put("ping_server_busy", Md.f0(Stats.median(busy) * 100) + "%");
        out.put("dilution_summary", "et / lt " + Md.f2(ratio(d, "loop", "/ping")) + " on /ping, "
                + Md.f2(ratio(d, "loop", "/healthz")) + " on /healthz");
        return Md.table(List.of("servers", "rate ratio on /ping", "rate ratio on /healthz", "gap on /ping", "gap on /healthz"), rows);
    }

    /** One server's median rate over another's, on /ping and on /healthz, and the gaps they make. */
    private static List<String> gapRow(String label, Data d, String arch, String mode, String otherArch, String otherMode) {
        double ping = ratio(d, arch, mode, otherArch, otherMode, "/ping");
        double healthz = ratio(d, arch, mode, otherArch, otherMode, "/healthz");
        return List.of(label, Md.f2(ping), Md.f2(healthz), Md.pct(Math.abs(ping - 1) * 100), Md.pct(Math.abs(healthz - 1) * 100));
    }

    /** et's median rate over lt's. */
    private static double ratio(Data d, String mode, String path) {
        return ratio(d, "et", mode, "lt", mode, path);
    }

    private static double ratio(Data d, String arch, String mode, String otherArch, String otherMode, String path) {
        return d.median(Sample::rate, arch, mode, path) / d.median(Sample::rate, otherArch, otherMode, path);
    }

    /** redis-benchmark GET on the same Redis, alone on its core, and how close the loop posture comes. */
    private static void ceiling(Findings f, Report out) {
        Data d = f.data;
        List<List<String>> rows = new ArrayList<>();
        String[] pipes = {"1", d.settings.get("depth")};
        for (int i = 0; i < pipes.length; i++) {
            double cpu = Stats.median(d.gets(Get::redisCpu, pipes[i]));
            rows.add(List.of(REDIS_GET + pipes[i], Md.f0(f.ceilings[i]), Md.f0(f.ceilings[i]), Md.f1(cpu)));
        }
        for (String a : ARCHS) {
            double healthz = d.median(Sample::rate, a, "loop", "/healthz"), cpu = d.median(Sample::redisCpu, a, "loop", "/healthz") / GETS;
            rows.add(List.of(a + " loop /healthz", Md.f0(healthz), Md.f0(GETS * healthz), Md.f1(cpu)));
        }
        out.put("redis_get_p1", Md.f0(f.ceilings[0])).put("redis_get_pn", Md.f0(f.ceilings[1]));
        out.put("loop_gets_best", Md.f0(f.bestGets) + " GETs/s");
        out.put("loop_gets_vs_p1", Md.f2(f.bestGets / f.ceilings[0])).put("loop_gets_vs_pn", Md.f2(f.bestGets / f.ceilings[1]));
        out.put("ceiling_table", Md.table(List.of("what", "requests/s", "Redis GETs/s", "Redis CPU µs per GET"), rows));
    }

    /**
     * The lab's claims: on /healthz the loop posture serves at least twice what either blocking
     * posture serves, on both architectures, and at least half of redis-benchmark's GET rate
     * without pipelining, although it shares Redis's core and asks two GETs per request; and,
     * the same margin measured as work, either blocking posture costs the core at least twice
     * the loop's CPU time per /healthz. The rate ratios between postures come from the compare
     * run's slices, paired by round (from part 2's rounds in results that predate it); the
     * others from part 2's rounds, paired by round number (redis-benchmark's rounds with the
     * servers' rounds of the same number).
     */
    static List<Claim> claims(Data d) {
        CompareRun healthz = d.compared.get("/healthz");
        double[] getRates = d.gets(Get::rate, "1");
        List<Claim> claims = new ArrayList<>();
        for (String a : ARCHS) {
            double[] loop = d.of(Sample::rate, a, "loop", "/healthz");
            for (String m : new String[] {"pool", "blocking"}) {
                String statement = a + ": loop serves at least twice " + m + "'s /healthz req/s";
                ForkInterval paired = healthz == null ? null : healthz.forkRatio(a + "-loop", a + "-" + m, CompareRun.RATE);
                if (healthz == null) {
                    claims.add(Claim.atLeast(statement, Claim.paired(loop, d.of(Sample::rate, a, m, "/healthz")), loop.length, 2.0));
                } else if (paired != null) {
                    claims.add(Claim.atLeast(statement, paired, healthz.rounds(a + "-loop", a + "-" + m), 2.0));
                }
            }
            claims.add(Claim.atLeast(a + ": loop's /healthz req/s reach half of " + REDIS_GET + "1",
                    Claim.paired(loop, getRates), loop.length, 0.5));
            for (String m : new String[] {"pool", "blocking"}) {
                claims.add(Claim.atLeast(a + ": " + m + " costs the core at least twice loop's CPU time per /healthz",
                        Claim.paired(coreMicrosByRound(d, a, m), coreMicrosByRound(d, a, "loop")), loop.length, 2.0));
            }
        }
        return claims;
    }
}
