package niolab.common.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One echo-bench {@code --json} file (schema 2), the one definition of it: echo-bench builds
 * and writes this record, the report generator reads it, and {@code echo-bench/JSON-SCHEMA.md}
 * is checked against it by a test. Component names are the JSON names in camel case
 * ({@code elapsedS} is {@code elapsed_s}, see {@link ResultsJson}), in the order written; a boxed
 * type is a field that may be null, and a nested record marked {@code NON_NULL} is left out
 * when it does not apply ({@code uncorrectedLatencyUs} and {@code schedule} without
 * {@code --rate}, {@code mean} without runs).
 *
 * <pre>
 *   BenchReport b = ResultsJson.read(Files.readString(path), BenchReport.class);
 *   double[] p99 = b.column(BenchReport.Column.P99);   // one value per run
 * </pre>
 */
public record BenchReport(String tool, int schema, Config config, Environment environment, Run warmup,
                          List<Run> runs, @JsonInclude(JsonInclude.Include.NON_NULL) Mean mean, Errors errors) {
    public static final String TOOL = "echo-bench";
    /** Bumped when a field changes meaning; adding a field keeps it. */
    public static final int SCHEMA = 2;

    /** The command line as it took effect; {@code requests} or {@code durationS} is null, never both. */
    public record Config(String target, String protocol, String path, String mode, int connections, int threads,
                         boolean keepalive, int pipeline, Long requests, Double durationS, String warmup, double rate,
                         int runs, Long clientWarmupRequests, int size, long seed, long timeoutMs, Double intervalS,
                         boolean linger0, double maxErrorRate, Long serverPid, String hlog, String tag, String startAt) {
    }

    /** The client's host as the JVM sees it, and the kernel settings short connections depend on. */
    public record Environment(String host, int cores, String os, String kernel, String arch, String jdk, String jvm,
                              String time, String localPortRange, String tcpTwReuse) {
    }

    public record Run(int run, long requests, long attempted, double qps, double elapsedS, Latency latencyUs,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Latency uncorrectedLatencyUs, Errors errors,
                      Cpu cpuUsPerRequest, @JsonInclude(JsonInclude.Include.NON_NULL) Schedule schedule,
                      Long timeWait, List<Interval> intervals) {
    }

    /** Microseconds; a mean row's are means of the runs' values, hence not whole numbers. */
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

    /** Under {@code --rate}: requests started more than 1 ms late, and the largest lag. */
    public record Schedule(long late, long maxLagUs) {
    }

    public record Interval(double tS, double seconds, long requests, double qps, long p99Us, long errors) {
    }

    public record Mean(double qps, double elapsedS, Latency latencyUs) {
    }

    /** The original write-up's table columns, in its order: {@code qps min p50 p90 p99 p999 max elapsed}. */
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

    /** Server CPU µs per request of each run, in run order; NaN where it was not measured. */
    public double[] serverCpuPerRun() {
        double[] v = new double[runs.size()];
        for (int i = 0; i < v.length; i++) {
            Double s = runs.get(i).cpuUsPerRequest().server();
            v[i] = s == null ? Double.NaN : s;
        }
        return v;
    }
}
