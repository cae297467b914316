package niolab.common.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One {@code echo-bench compare --json} file (schema 2, {@code "command": "compare"}), the one
 * definition of it: echo-bench writes it, the report generator reads the noise floor from it
 * ({@code make noise}), and {@code echo-bench/JSON-SCHEMA.md} is checked against it. Names and
 * null rules as in {@link BenchReport}: a boxed type may be null (not measured, or never served).
 */
public record BenchComparison(String tool, int schema, String command, Config config, BenchReport.Environment environment,
                              List<Server> servers, List<Slice> slices, Summary summary) {
    public static final String COMMAND = "compare";

    /** {@code threads} is null when the load tool picks it; {@code seed} repeats the order. */
    public record Config(String servers, String load, String protocol, String path, int connections, Integer threads,
                         boolean keepalive, int pipeline, double rate, int size, int rounds, double sliceS, double warmupS,
                         long seed) {
    }

    /** {@code died} says why the server was given up, or is null. */
    public record Server(String name, String target, Long pid, String died) {
    }

    /** One slice, in the order it ran; {@code position} 0 is the first server visited in its round. */
    public record Slice(int round, int position, String server, long requests, long errors, double seconds, Double rate,
                        Double p50Us, Double p99Us, Double serverCpuUsPerRequest, boolean refused) {
    }

    public record Summary(List<ServerSummary> servers, List<Comparison> comparisons) {
    }

    /** A server's medians over the slices in which it served; the rates are left out when it never served. */
    public record ServerSummary(String name, int slices, long errors, @JsonInclude(JsonInclude.Include.NON_NULL) Double medianRate,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Double minRate,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Double maxRate,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Double p25Rate,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Double p75Rate, Double medianCpuUsPerRequest,
                                Double medianP99Us) {
    }

    /** Against the first server; a quantity is null when too few rounds pair (or, for CPU, without both pids). */
    public record Comparison(String server, String baseline, Ratio rate, Ratio cpuPerRequest, Ratio p99) {
    }

    /** The median of the per-round ratios with its 95% interval, where the interval lies against 1, and the verdict in words. */
    public record Ratio(int rounds, double estimate, double low, double high, String direction, String words) {
    }
}
