package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * exp-backend: {@code /ping} (memory only) and {@code /healthz} (two Redis GETs) on lt and et
 * for each backend posture (loop, pool, blocking), with Redis on the server's core; the
 * servers' counters (round trips, wake-ups); redis-benchmark GET as the ceiling; the lab's
 * claims about the postures checked on the run.
 */
public final class BackendExperiment implements Experiment {
    private static final String[] ARCHS = {"lt", "et"};
    private static final String[] MODES = {"loop", "pool", "blocking"};
    private static final String[] PATHS = {"/ping", "/healthz"};
    /** GETs per /healthz: what turns a /healthz rate into a Redis command rate. */
    private static final int GETS = 2;

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
        double noise = noise(samples);
        out.put("noise", Md.f0(noise * 100) + "%");
        out.put("postures_table", posturesTable(samples, out));
        out.put("core_table", coreTable(samples, out));
        out.put("dilution_table", dilutionTable(samples, out));
        ceiling(r, samples, s.get("depth"), out);
        claims(samples, r.csv("redis-benchmark.csv"), noise, out);
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
        for (String a : ARCHS) {
            for (String m : MODES) {
                double[] v = rate(samples, a, m, path);
                rows.add(List.of(a, m, Md.f0(Stats.median(v)), Md.f0(v[Stats.best(v, false)]) + " – " + Md.f0(v[Stats.best(v, true)]),
                        Md.f0(median(samples, "p99_us", a, m, path)), Md.f1(median(samples, "server_cpu_us_per_req", a, m, path)),
                        Md.f1(median(samples, "redis_cpu_us_per_req", a, m, path)),
                        Md.f0(Stats.sum(samples.numbers("errors", "arch", a, "mode", m, "path", path)))));
            }
        }
        return Md.table(List.of("arch", "posture", "req/s (median)", "range over rounds", "p99 µs", "server CPU µs/req",
                "Redis CPU µs/req", "errors"), rows);
    }

    /** What each server counted over the whole run (warm-ups included): the ratios are what matter. */
    private static String countersTable(Results r) {
        List<List<String>> rows = new ArrayList<>();
        for (String a : ARCHS) {
            for (String m : MODES) {
                ServerCounters c = r.counters("counters-" + a + "-" + m + ".txt");
                double calls = c.get("backend_calls");
                double trips = c.get("backend_round_trips");
                rows.add(List.of(a, m, Md.f0(calls), Md.f2(trips / calls), Md.f2(GETS * calls / trips),
                        m.equals("pool") ? Md.f2(c.get("wakeups") / calls) : "–", Md.f0(c.get("backend_failures"))));
            }
        }
        return Md.table(List.of("arch", "posture", "backend calls", "round trips per /healthz", "GETs per round trip",
                "wake-ups per hand-off", "503/504 answers"), rows);
    }

    /** Median over every point of the rate's (max − min) / median across rounds: the run-to-run noise. */
    private static double noise(Csv samples) {
        List<Double> spreads = new ArrayList<>();
        for (String a : ARCHS) {
            for (String m : MODES) {
                for (String p : PATHS) spreads.add(Stats.relativeSpread(rate(samples, a, m, p)));
            }
        }
        double[] v = new double[spreads.size()];
        for (int i = 0; i < v.length; i++) v[i] = spreads.get(i);
        return Stats.median(v);
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
     * What a /healthz costs the shared core: the server's CPU plus Redis's, and how many such
     * requests one core could serve if nothing else ran on it. Unlike a rate, this holds on a
     * busy machine: the work per request does not depend on who else runs.
     */
    private static String coreTable(Csv samples, Report out) {
        List<List<String>> rows = new ArrayList<>();
        StringBuilder summary = new StringBuilder();
        for (String a : ARCHS) {
            double loop = coreMicros(samples, a, "loop");
            summary.append(summary.length() == 0 ? "" : "; ").append(a).append(':');
            for (String m : MODES) {
                double core = coreMicros(samples, a, m);
                summary.append(m.equals("loop") ? " " : ", ").append(m).append(' ').append(Md.f1(core)).append(" µs");
                rows.add(List.of(a, m, Md.f1(median(samples, "server_cpu_us_per_req", a, m, "/healthz")),
                        Md.f1(median(samples, "redis_cpu_us_per_req", a, m, "/healthz")), Md.f1(core), Md.f0(1e6 / core),
                        Md.f2(core / loop)));
            }
        }
        out.put("core_summary", summary.toString());
        return Md.table(List.of("arch", "posture", "server CPU µs", "Redis CPU µs", "core µs per /healthz",
                "one core's /healthz per s", "core time / loop's"), rows);
    }

    /** Median server plus median Redis CPU per /healthz. */
    private static double coreMicros(Csv samples, String arch, String mode) {
        return median(samples, "server_cpu_us_per_req", arch, mode, "/healthz") + median(samples, "redis_cpu_us_per_req", arch, mode, "/healthz");
    }

    /** The gap between the architectures on /ping and on /healthz, per posture: how much the backend dilutes it. */
    private static String dilutionTable(Csv samples, Report out) {
        List<List<String>> rows = new ArrayList<>();
        for (String m : MODES) {
            double ping = ratio(samples, m, "/ping");
            double healthz = ratio(samples, m, "/healthz");
            rows.add(List.of(m, Md.f2(ping), Md.f2(healthz), Md.pct(Math.abs(ping - 1) * 100), Md.pct(Math.abs(healthz - 1) * 100)));
        }
        double share = Stats.median(rate(samples, "lt", "loop", "/healthz")) / Stats.median(rate(samples, "lt", "loop", "/ping"));
        out.put("loop_healthz_share", Md.f2(share));
        double[] busy = new double[ARCHS.length * MODES.length];
        int k = 0;
        for (String a : ARCHS) {
            for (String m : MODES) {
                busy[k++] = Stats.median(rate(samples, a, m, "/ping")) * median(samples, "server_cpu_us_per_req", a, m, "/ping") / 1e6;
            }
        }
        out.put("ping_server_busy", Md.f0(Stats.median(busy) * 100) + "%");
        out.put("dilution_summary", "et / lt " + Md.f2(ratio(samples, "loop", "/ping")) + " on /ping, "
                + Md.f2(ratio(samples, "loop", "/healthz")) + " on /healthz");
        return Md.table(List.of("posture", "et / lt on /ping", "et / lt on /healthz", "gap on /ping", "gap on /healthz"), rows);
    }

    /** et's median rate over lt's. */
    private static double ratio(Csv samples, String mode, String path) {
        return Stats.median(rate(samples, "et", mode, path)) / Stats.median(rate(samples, "lt", mode, path));
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

    /** A claim of the lab's: a ratio measured on the run against its bound (at least); a failure by less than the noise says so. */
    private record Claim(String statement, double ratio, double bound) {
        boolean holds() {
            return ratio >= bound;
        }

        List<String> row(double noise) {
            boolean close = !holds() && (bound - ratio) / bound < noise;
            return List.of(statement, Md.f2(ratio), "≥ " + Md.f2(bound), holds() ? "holds" : close ? "fails, within the noise" : "fails");
        }
    }

    /**
     * The lab's claims: on /healthz the loop posture serves at least twice what either blocking
     * posture serves, on both architectures, and at least half of redis-benchmark's GET rate
     * without pipelining, although it shares Redis's core and asks two GETs per request; and,
     * the same margin measured as work, either blocking posture costs the core at least twice
     * the loop's CPU time per /healthz.
     */
    private static void claims(Csv samples, Csv bench, double noise, Report out) {
        double getRate = Stats.median(bench.numbers("requests_per_s", "pipeline", "1"));
        List<Claim> claims = new ArrayList<>();
        for (String a : ARCHS) {
            double loop = Stats.median(rate(samples, a, "loop", "/healthz"));
            for (String m : new String[] {"pool", "blocking"}) {
                claims.add(new Claim(a + ": loop serves at least twice " + m + "'s /healthz req/s",
                        loop / Stats.median(rate(samples, a, m, "/healthz")), 2.0));
            }
            claims.add(new Claim(a + ": loop's /healthz req/s reach half of redis-benchmark GET -P 1", loop / getRate, 0.5));
            for (String m : new String[] {"pool", "blocking"}) {
                claims.add(new Claim(a + ": " + m + " costs the core at least twice loop's CPU time per /healthz",
                        coreMicros(samples, a, m) / coreMicros(samples, a, "loop"), 2.0));
            }
        }
        List<List<String>> rows = new ArrayList<>();
        int held = 0;
        for (Claim c : claims) {
            rows.add(c.row(noise));
            if (c.holds()) held++;
        }
        out.put("claims_table", Md.table(List.of("claim", "measured ratio", "bound", "on this run"), rows));
        out.put("claims_held", held + " of " + claims.size());
    }
}
