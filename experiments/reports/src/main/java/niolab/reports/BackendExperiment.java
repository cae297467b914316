package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    static final Threshold THRESHOLD = new Threshold(0.05, "a backend's path is worth changing for 5% of rate; less, the network hop's variation swamps it");

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

    @Override
    public void generate(Results r, Report out) {
        Csv samples = r.csv("samples.csv");
        Csv settings = r.csv("settings.csv");
        Map<String, String> s = settings.rows().get(0);
        out.put("duration", s.get("duration")).put("warmup", s.get("warmup")).put("rounds", s.get("rounds"))
                .put("connections", s.get("connections")).put("depth", s.get("depth"))
                .put("load_before", s.get("load_before")).put("load_after", s.get("load_after"));
        out.put("redis_version", r.text("redis-version.txt").trim());
        for (String path : PATHS) out.put(key(path) + "_table", pathTable(samples, path));
        out.put("counters_table", countersTable(r));
        out.put("steadier", steadier(samples));
        out.put("postures_table", posturesTable(samples, out));
        out.put("vt_table", vtTable(samples, out));
        out.put("core_table", coreTable(samples, out));
        out.put("dilution_table", dilutionTable(samples, out));
        ceiling(r, samples, s.get("depth"), out);
        CompareRun healthz = r.has("compare-healthz.json") ? CompareRun.of(r, "compare-healthz.json", THRESHOLD) : null;
        comparisons(r, s, out);
        claims(samples, healthz, r.csv("redis-benchmark.csv"), out);
        out.put("aa_reading", aaReading(r.aa()));
    }

    /**
     * What the run's own A/A pair (lt against lt) says: a check against the declared threshold,
     * which it does not set.
     */
    static String aaReading(Interval aa) {
        if (aa == null) return "This run measured no A/A pair to check its noise against the threshold of " + THRESHOLD.percent() + ".";
        return "The A/A pair, two identical `lt` servers, read against each other: " + THRESHOLD.aaCheck(aa) + ". The pair checks"
                + " the run; the threshold, " + THRESHOLD.percent() + ", was fixed before it, so a noisier run makes no verdict easier.";
    }

    /** Part 1's tables, one compare per path, or a line saying the results predate it. */
    private static void comparisons(Results r, Map<String, String> settings, Report out) {
        if (!r.has("compare-healthz.json")) {
            out.put("compare_tables", "These results predate the paired comparison (`echo-bench compare`): the rate claims below"
                    + " come from the sequential rounds of 3.1 and 3.2, paired by round index.");
            return;
        }
        StringBuilder sb = new StringBuilder("Every server ran in one `echo-bench compare` per path (" + settings.get("cmp_warmup")
                + " of load per server first); each ratio is the median of the per-round ratios to the first server, with its"
                + " 95% interval.");
        for (String path : PATHS) {
            sb.append("\n\n").append(CompareRun.of(r, "compare-" + key(path) + ".json", THRESHOLD).section(path));
        }
        out.put("compare_tables", sb.toString());
    }

    private static String key(String path) {
        return path.substring(1);
    }

    private static double[] rate(Csv samples, String arch, String mode, String path) {
        return samples.numbers("requests_per_s", "arch", arch, "mode", mode, "path", path);
    }

    private static double median(Csv samples, String column, String arch, String mode, String path) {
        return Stats.median(samples.numbers(column, "arch", arch, "mode", mode, "path", path));
    }

    /** One row per architecture and posture: medians over the rounds, and the range of the rate. */
    private static String pathTable(Csv samples, String path) {
        List<List<String>> rows = new ArrayList<>();
        for (Server s : SERVERS) {
            String a = s.arch();
            String m = s.mode();
            double[] v = rate(samples, a, m, path);
            rows.add(List.of(a, m, Md.f0(Stats.median(v)), Md.f0(v[Stats.best(v, false)]) + " – " + Md.f0(v[Stats.best(v, true)]),
                    Md.f0(median(samples, "p99_us", a, m, path)), Md.f1(median(samples, "server_cpu_us_per_req", a, m, path)),
                    Md.f1(median(samples, "redis_cpu_us_per_req", a, m, path)),
                    Md.f0(Stats.sum(samples.numbers("errors", "arch", a, "mode", m, "path", path)))));
        }
        return Md.table(List.of("arch", "posture", "req/s (median)", "range over rounds", "p99 µs", "server CPU µs/req",
                "Redis CPU µs/req", "errors"), rows);
    }

    /** What each server counted over the whole run (warm-ups included): the ratios are what matter. */
    private static String countersTable(Results r) {
        List<List<String>> rows = new ArrayList<>();
        for (Server s : SERVERS) {
            ServerCounters c = r.counters("counters-" + s.arch() + "-" + s.mode() + ".txt");
            double calls = c.get("backend_calls");
            double trips = c.get("backend_round_trips");
            rows.add(List.of(s.arch(), s.mode(), Md.f0(calls), Md.f2(trips / calls), Md.f2(GETS * calls / trips),
                    s.mode().equals("pool") ? Md.f2(c.get("wakeups") / calls) : "–", Md.f0(c.get("backend_failures"))));
        }
        return Md.table(List.of("arch", "posture", "backend calls", "round trips per /healthz", "GETs per round trip",
                "wake-ups per hand-off", "503/504 answers"), rows);
    }

    /**
     * Which measure moved less from round to round, rate or core time per /healthz: the median
     * over every server of each one's (max − min) / median across rounds, and a sentence that
     * follows it.
     */
    private static String steadier(Csv samples) {
        double[] rates = new double[SERVERS.size()], cores = new double[SERVERS.size()];
        for (int i = 0; i < rates.length; i++) {
            Server s = SERVERS.get(i);
            rates[i] = Stats.relativeSpread(rate(samples, s.arch(), s.mode(), "/healthz"));
            cores[i] = Stats.relativeSpread(coreMicrosByRound(samples, s.arch(), s.mode()));
        }
        double rate = Stats.median(rates), core = Stats.median(cores);
        return "On this run a server's /healthz rate moved by " + Md.f0(rate * 100) + "% between its rounds and its core time per"
                + " request by " + Md.f0(core * 100) + "% (medians over the servers of (max − min) / median): "
                + (core < rate ? "the CPU time a request costs was the steadier measure of what each posture asks of the core."
                        : "here the CPU time a request costs was no steadier than the rate.");
    }

    /** /healthz: the loop posture against the two blocking ones, per architecture; the winner line. */
    private static String posturesTable(Csv samples, Report out) {
        List<List<String>> rows = new ArrayList<>();
        StringBuilder winners = new StringBuilder();
        for (String a : ARCHS) {
            double[] v = new double[MODES.length];
            for (int i = 0; i < MODES.length; i++) v[i] = Stats.median(rate(samples, a, MODES[i], "/healthz"));
            rows.add(List.of(a, Md.f0(v[0]), Md.f0(v[1]), Md.f0(v[2]), Md.f2(v[0] / v[1]), Md.f2(v[0] / v[2])));
            int best = Stats.best(v, true);
            if (winners.length() > 0) winners.append("; ");
            winners.append(a).append(": ").append(MODES[best]).append(" (").append(Md.versus(v, best, MODES)).append(')');
        }
        out.put("winners", winners.toString());
        return Md.table(List.of("arch", "loop req/s", "pool req/s", "blocking req/s", "loop / pool", "loop / blocking"), rows);
    }

    /**
     * vt's posture against every event-loop posture on /healthz, in rate and in core time: the
     * blocking client on a virtual thread, beside the same client on the loop or in a pool, and
     * beside the loop's own pipelining client.
     */
    private static String vtTable(Csv samples, Report out) {
        double vt = Stats.median(rate(samples, "vt", "thread", "/healthz"));
        double vtCore = coreMicros(samples, "vt", "thread");
        List<List<String>> rows = new ArrayList<>();
        StringBuilder summary = new StringBuilder();
        for (String a : ARCHS) {
            for (String m : MODES) {
                double v = Stats.median(rate(samples, a, m, "/healthz"));
                double core = coreMicros(samples, a, m);
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
    private static String coreTable(Csv samples, Report out) {
        List<List<String>> rows = new ArrayList<>();
        StringBuilder summary = new StringBuilder();
        String arch = null;
        for (Server s : SERVERS) {
            String a = s.arch();
            String m = s.mode();
            boolean first = !a.equals(arch);
            if (first) summary.append(arch == null ? "" : "; ").append(a).append(':');
            arch = a;
            double core = coreMicros(samples, a, m);
            summary.append(first ? " " : ", ").append(m).append(' ').append(Md.f1(core)).append(" µs");
            // vt has no loop posture: its comparison is the table of its own.
            String vsLoop = a.equals("vt") ? "–" : Md.f2(core / coreMicros(samples, a, "loop"));
            rows.add(List.of(a, m, Md.f1(median(samples, "server_cpu_us_per_req", a, m, "/healthz")),
                    Md.f1(median(samples, "redis_cpu_us_per_req", a, m, "/healthz")), Md.f1(core), Md.f0(1e6 / core), vsLoop));
        }
        out.put("core_summary", summary.toString());
        return Md.table(List.of("arch", "posture", "server CPU µs", "Redis CPU µs", "core µs per /healthz",
                "one core's /healthz per s", "core time / loop's"), rows);
    }

    /** Median server plus median Redis CPU per /healthz. */
    /** Server and Redis CPU µs per /healthz, one per round. */
    private static double[] coreMicrosByRound(Csv samples, String arch, String mode) {
        double[] server = samples.numbers("server_cpu_us_per_req", "arch", arch, "mode", mode, "path", "/healthz");
        double[] redis = samples.numbers("redis_cpu_us_per_req", "arch", arch, "mode", mode, "path", "/healthz");
        double[] v = new double[server.length];
        for (int i = 0; i < v.length; i++) v[i] = server[i] + redis[i];
        return v;
    }

    private static double coreMicros(Csv samples, String arch, String mode) {
        return median(samples, "server_cpu_us_per_req", arch, mode, "/healthz") + median(samples, "redis_cpu_us_per_req", arch, mode, "/healthz");
    }

    /** The gap between the architectures on /ping and on /healthz, per posture: how much the backend dilutes it. */
    private static String dilutionTable(Csv samples, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (String m : MODES) rows.add(gapRow("et / lt, " + m, samples, "et", m, "lt", m));
        rows.add(gapRow("vt thread / lt pool", samples, "vt", "thread", "lt", "pool"));
        rows.add(gapRow("vt thread / lt loop", samples, "vt", "thread", "lt", "loop"));
        double share = Stats.median(rate(samples, "lt", "loop", "/healthz")) / Stats.median(rate(samples, "lt", "loop", "/ping"));
        out.put("loop_healthz_share", Md.f2(share));
        double[] busy = new double[SERVERS.size()];
        int k = 0;
        for (Server s : SERVERS) {
            busy[k++] = Stats.median(rate(samples, s.arch(), s.mode(), "/ping"))
                    * median(samples, "server_cpu_us_per_req", s.arch(), s.mode(), "/ping") / 1e6;
        }
        out.put("ping_server_busy", Md.f0(Stats.median(busy) * 100) + "%");
        out.put("dilution_summary", "et / lt " + Md.f2(ratio(samples, "loop", "/ping")) + " on /ping, "
                + Md.f2(ratio(samples, "loop", "/healthz")) + " on /healthz");
        return Md.table(List.of("servers", "rate ratio on /ping", "rate ratio on /healthz", "gap on /ping", "gap on /healthz"), rows);
    }

    /** One server's median rate over another's, on /ping and on /healthz, and the gaps they make. */
    private static List<String> gapRow(String label, Csv samples, String arch, String mode, String otherArch, String otherMode) {
        double ping = ratio(samples, arch, mode, otherArch, otherMode, "/ping");
        double healthz = ratio(samples, arch, mode, otherArch, otherMode, "/healthz");
        return List.of(label, Md.f2(ping), Md.f2(healthz), Md.pct(Math.abs(ping - 1) * 100), Md.pct(Math.abs(healthz - 1) * 100));
    }

    /** et's median rate over lt's. */
    private static double ratio(Csv samples, String mode, String path) {
        return ratio(samples, "et", mode, "lt", mode, path);
    }

    private static double ratio(Csv samples, String arch, String mode, String otherArch, String otherMode, String path) {
        return Stats.median(rate(samples, arch, mode, path)) / Stats.median(rate(samples, otherArch, otherMode, path));
    }

    /** redis-benchmark GET on the same Redis, alone on its core, and how close the loop posture comes. */
    private static void ceiling(Results r, Csv samples, String depth, Report out) {
        Csv bench = r.csv("redis-benchmark.csv");
        List<List<String>> rows = new ArrayList<>();
        double[] ceilings = new double[2];
        String[] pipes = {"1", depth};
        for (int i = 0; i < pipes.length; i++) {
            ceilings[i] = Stats.median(bench.numbers("requests_per_s", "pipeline", pipes[i]));
            double cpu = Stats.median(bench.numbers("redis_cpu_us_per_req", "pipeline", pipes[i]));
            rows.add(List.of("redis-benchmark GET -P " + pipes[i], Md.f0(ceilings[i]), Md.f0(ceilings[i]), Md.f1(cpu)));
        }
        double bestGets = 0;
        for (String a : ARCHS) {
            double healthz = Stats.median(rate(samples, a, "loop", "/healthz"));
            bestGets = Math.max(bestGets, GETS * healthz);
            rows.add(List.of(a + " loop /healthz", Md.f0(healthz), Md.f0(GETS * healthz),
                    Md.f1(median(samples, "redis_cpu_us_per_req", a, "loop", "/healthz") / GETS)));
        }
        out.put("redis_get_p1", Md.f0(ceilings[0])).put("redis_get_pn", Md.f0(ceilings[1]));
        out.put("loop_gets_best", Md.f0(bestGets) + " GETs/s");
        out.put("loop_gets_vs_p1", Md.f2(bestGets / ceilings[0])).put("loop_gets_vs_pn", Md.f2(bestGets / ceilings[1]));
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
    private static void claims(Csv samples, CompareRun healthz, Csv bench, Report out) {
        double[] getRates = bench.numbers("requests_per_s", "pipeline", "1");
        List<Claim> claims = new ArrayList<>();
        for (String a : ARCHS) {
            double[] loop = rate(samples, a, "loop", "/healthz");
            for (String m : new String[] {"pool", "blocking"}) {
                String statement = a + ": loop serves at least twice " + m + "'s /healthz req/s";
                ForkInterval paired = healthz == null ? null : healthz.forkRatio(a + "-loop", a + "-" + m, CompareRun.RATE);
                if (healthz == null) {
                    claims.add(Claim.atLeast(statement, Claim.paired(loop, rate(samples, a, m, "/healthz")), loop.length, 2.0));
                } else if (paired != null) {
                    claims.add(Claim.atLeast(statement, paired, healthz.rounds(a + "-loop", a + "-" + m), 2.0));
                }
            }
            claims.add(Claim.atLeast(a + ": loop's /healthz req/s reach half of redis-benchmark GET -P 1",
                    Claim.paired(loop, getRates), loop.length, 0.5));
            for (String m : new String[] {"pool", "blocking"}) {
                claims.add(Claim.atLeast(a + ": " + m + " costs the core at least twice loop's CPU time per /healthz",
                        Claim.paired(coreMicrosByRound(samples, a, m), coreMicrosByRound(samples, a, "loop")), loop.length, 2.0));
            }
        }
        Claim.report(claims, "measured ratio", out);
        if (healthz != null) {
            CompareRun.forkPrecision(out, healthz.forks(), healthz.roundsPerFork(), "The claims on part 2's rounds (against"
                    + " redis-benchmark, and the core's CPU time) pair those rounds by number, outside the forks:");
        }
    }
}
