package niolab.common.results;

import java.util.List;

/**
 * One {@code echo-bench merge --json} file (schema 2, {@code "command": "merge"}), the one
 * definition of it: echo-bench writes it, the report generator reads its rows and warnings
 * (exp-network), and {@code echo-bench/JSON-SCHEMA.md} is checked against it. Rows are tags:
 * each generator, its {@code -uncorrected} twin under {@code --rate}, then the unions.
 */
public record BenchMerge(String tool, int schema, String command, List<String> files, double commonS,
                         List<Generator> generators, List<Row> rows, List<String> warnings) {
    public static final String COMMAND = "merge";

    /** {@code schedule} is null for a generator that ran a closed loop. */
    public record Generator(String tag, String file, String start, String end, double achievedRate, Schedule schedule) {
    }

    /** From a {@code --rate} run's schedule-lag comments. */
    public record Schedule(double targetRate, long late, long maxLagUs) {
    }

    public record Row(String tag, long requests, double qps, double elapsedS, BenchReport.Latency latencyUs) {
    }
}
