package niolab.reports;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One echo-bench {@code --json} file, field for field as {@code echo-bench/JSON-SCHEMA.md}
 * (schema 2) describes it. Component names are the JSON names in camel case ({@code elapsedS}
 * is {@code elapsed_s}); a boxed type marks a field the schema allows to be null, a nested
 * record that may be absent ({@code uncorrectedLatencyUs}, {@code schedule}) is null then.
 */
public record BenchJson(String tool, int schema, Config config, Environment environment, Run warmup,
                        List<Run> runs, Mean mean, Errors errors) {
    /** The schema version this generator reads. */
    public static final int SCHEMA = 2;

    public record Config(String target, String protocol, String mode, int connections, int threads,
                         boolean keepalive, int pipeline, Long requests, Double durationS, String warmup,
                         double rate, int runs, Long clientWarmupRequests, int size, long seed, long timeoutMs, Double intervalS,
                         boolean linger0, double maxErrorRate, Long serverPid, String hlog, String tag, String startAt,
                         String path) {
    }

    public record Environment(String host, int cores, String os, String kernel, String arch, String jdk,
                              String jvm, String time, String localPortRange, String tcpTwReuse) {
    }

    public record Run(int run, long requests, long attempted, double qps, double elapsedS, Latency latencyUs,
                      Latency uncorrectedLatencyUs, Errors errors, Cpu cpuUsPerRequest, Schedule schedule,
                      Long timeWait, List<Interval> intervals) {
    }

    public record Latency(double min, double p50, double p90, double p99, double p999, double max) {
    }

    /** Failed requests by class; {@code short} is a Java keyword, hence the one explicit name. */
    public record Errors(long refused, long reset, long timeout, @JsonProperty("short") long closedEarly,
                         long mismatch, long portsExhausted, long other) {
        public long total() {
            return refused + reset + timeout + closedEarly + mismatch + portsExhausted + other;
        }
    }

    /** CPU µs per request; null when not measured: {@code server} without a server PID, all three when no request succeeded. */
    public record Cpu(Double clientProcess, Double clientThreads, Double server) {
    }

    public record Schedule(long late, long maxLagUs) {
    }

    public record Interval(double tS, double seconds, long requests, double qps, long p99Us, long errors) {
    }

    public record Mean(double qps, double elapsedS, Latency latencyUs) {
    }

    /** The seed's table columns, in its order: {@code qps min p50 p90 p99 p999 max elapsed}. */
    public enum Column {
        QPS(Run::qps), MIN(r -> r.latencyUs().min()), P50(r -> r.latencyUs().p50()), P90(r -> r.latencyUs().p90()),
        P99(r -> r.latencyUs().p99()), P999(r -> r.latencyUs().p999()), MAX(r -> r.latencyUs().max()),
        ELAPSED(Run::elapsedS);

        private final ToDoubleFunction<Run> value;

        Column(ToDoubleFunction<Run> value) {
            this.value = value;
        }

        public double of(Run run) {
            return value.applyAsDouble(run);
        }
    }

    /** One column over all runs, in run order. */
    public double[] column(Column c) {
        double[] v = new double[runs.size()];
        for (int i = 0; i < v.length; i++) v[i] = c.of(runs.get(i));
        return v;
    }

    public double median(Column c) {
        return Stats.median(column(c));
    }

    public double mean(Column c) {
        return Stats.mean(column(c));
    }

    /** Server CPU µs per request, median over the runs (NaN when not measured). */
    public double serverCpuPerRequest() {
        double[] v = new double[runs.size()];
        for (int i = 0; i < v.length; i++) {
            Double s = runs.get(i).cpuUsPerRequest().server();
            v[i] = s == null ? Double.NaN : s;
        }
        return Stats.median(v);
    }
}
