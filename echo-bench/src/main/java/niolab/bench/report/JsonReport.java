package niolab.bench.report;

import java.net.InetAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import niolab.bench.ErrorClass;
import niolab.bench.ErrorCounts;
import niolab.bench.Proc;
import niolab.bench.RunResult;

/**
 * {@code --json FILE}: configuration, environment, the warm-up, every run (counts, percentiles
 * in µs, errors by class, CPU per request, schedule, interval series), the mean row and the
 * error totals. The schema is documented in {@code echo-bench/JSON-SCHEMA.md}; bump
 * {@link #SCHEMA} when a field changes meaning.
 */
public final class JsonReport {
    public static final long SCHEMA = 2;

    private JsonReport() {
    }

    public static String render(Map<String, Object> config, RunResult warmup, List<RunResult> runs) {
        return render(config, environment(), warmup, runs);
    }

    public static String render(Map<String, Object> config, Map<String, Object> environment, RunResult warmup,
            List<RunResult> runs) {
        Json j = new Json().begin().field("tool", "echo-bench").field("schema", SCHEMA);
        map(j.object("config"), config).end();
        map(j.object("environment"), environment).end();
        if (warmup == null) {
            j.field("warmup", (String) null);
        } else {
            run(j.object("warmup"), warmup).end();
        }
        j.beginArray("runs");
        ErrorCounts total = new ErrorCounts();
        for (RunResult r : runs) {
            run(j.begin(), r).end();
            total.addAll(r.errors);
        }
        j.endArray();
        if (!runs.isEmpty()) {
            double[] mean = new double[8];
            for (RunResult r : runs) {
                double[] c = ResultTable.columns(r);
                for (int i = 0; i < c.length; i++) mean[i] += c[i] / runs.size();
            }
            j.object("mean");
            row(j, "latency_us", mean);
            j.end();
        }
        errors(j.object("errors"), total).end();
        return j.end().toString();
    }

    /** Host, cores, OS, kernel, JDK, time, and the kernel settings short connections depend on. */
    public static Map<String, Object> environment() {
        Map<String, Object> env = new LinkedHashMap<>();
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = System.getenv().getOrDefault("HOSTNAME", "unknown");
        }
        env.put("host", host);
        env.put("cores", (long) Runtime.getRuntime().availableProcessors());
        env.put("os", System.getProperty("os.name"));
        env.put("kernel", System.getProperty("os.version"));
        env.put("arch", System.getProperty("os.arch"));
        env.put("jdk", System.getProperty("java.version"));
        env.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        env.put("time", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        env.put("local_port_range", Proc.localPortRange());
        env.put("tcp_tw_reuse", Proc.twReuse());
        return env;
    }

    private static Json run(Json j, RunResult r) {
        j.field("run", (long) r.run).field("requests", r.ok()).field("attempted", r.attempted());
        row(j, "latency_us", ResultTable.columns(r));
        if (r.uncorrectedUs != null) row(j, "uncorrected_latency_us", ResultTable.columns(r, r.uncorrectedUs));
        errors(j.object("errors"), r.errors).end();
        j.object("cpu_us_per_request")
                .field("client_process", r.clientCpuUsPerRequest())
                .field("client_threads", r.clientThreadCpuUsPerRequest())
                .field("server", r.serverCpuUsPerRequest())
                .end();
        if (r.uncorrectedUs != null) {
            j.object("schedule").field("late", r.late).field("max_lag_us", r.maxLagNanos / 1000).end();
        }
        j.field("time_wait", r.timeWait);
        j.beginArray("intervals");
        for (RunResult.Interval i : r.intervals) {
            j.begin().field("t_s", i.endSeconds).field("seconds", i.seconds).field("requests", i.requests)
                    .field("qps", i.qps()).field("p99_us", i.p99Us).field("errors", i.errors).end();
        }
        return j.endArray();
    }

    private static Json errors(Json j, ErrorCounts e) {
        for (ErrorClass c : ErrorClass.values()) j.field(c.label, e.get(c));
        return j;
    }

    private static void row(Json j, String name, double[] c) {
        if ("latency_us".equals(name)) j.field("qps", c[0]).field("elapsed_s", c[7]);
        j.object(name)
                .field("min", c[1]).field("p50", c[2]).field("p90", c[3]).field("p99", c[4])
                .field("p999", c[5]).field("max", c[6])
                .end();
    }

    /** Writes each entry of {@code m} as a field of the object {@code j} is in. */
    public static Json map(Json j, Map<String, Object> m) {
        for (Map.Entry<String, Object> e : m.entrySet()) {
            Object v = e.getValue();
            if (v == null) {
                j.field(e.getKey(), (String) null);
            } else if (v instanceof Boolean) {
                j.field(e.getKey(), (boolean) (Boolean) v);
            } else if (v instanceof Integer || v instanceof Long) {
                j.field(e.getKey(), ((Number) v).longValue());
            } else if (v instanceof Number) {
                j.field(e.getKey(), ((Number) v).doubleValue());
            } else {
                j.field(e.getKey(), v.toString());
            }
        }
        return j;
    }

}
