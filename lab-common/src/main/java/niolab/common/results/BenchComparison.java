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
                              List<Server> servers, List<Slice> slices, Summary summary,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Boolean partial) {
    public static final String COMMAND = "compare";

    /**
     * A complete run: {@code partial} is absent. It is true when a signal stopped compare, whose
     * summary is then of the slices completed: the report generator refuses such a file.
     */
    public BenchComparison(String tool, int schema, String command, Config config, BenchReport.Environment environment, List<Server> servers,
                           List<Slice> slices, Summary summary) {
        this(tool, schema, command, config, environment, servers, slices, summary, null);
    }

    /** This run, marked as stopped before its end. */
    public BenchComparison asPartial() {
        return new BenchComparison(tool, schema, command, config, environment, servers, slices, summary, true);
    }

    /**
     * {@code threads} is null when the load tool picks it; {@code seed} repeats the order.
     * {@code rounds} is per fork; {@code forks} (fresh processes of every command server, as run)
     * and {@code threshold} (the verdicts' margin as a fraction; null: the former default from the
     * A/A floor) are null in files written before forks; {@code aa} (an A/A twin asked for),
     * {@code untilDecided} and {@code maxTimeS} are null in files written before they existed.
     */
    public record Config(String servers, String load, String protocol, String path, int connections, Integer threads,
                         boolean keepalive, int pipeline, double rate, int size, int rounds, double sliceS, double warmupS,
                         long seed, Integer forks, Double threshold, Boolean aa, Boolean untilDecided, Double maxTimeS) {
        /** A file without forks: one fork, the default threshold. */
        public Config(String servers, String load, String protocol, String path, int connections, Integer threads, boolean keepalive,
                      int pipeline, double rate, int size, int rounds, double sliceS, double warmupS, long seed) {
            this(servers, load, protocol, path, connections, threads, keepalive, pipeline, rate, size, rounds, sliceS, warmupS, seed, null, null);
        }

        /** A file with forks, written before --aa and --until-decided. */
        public Config(String servers, String load, String protocol, String path, int connections, Integer threads, boolean keepalive,
                      int pipeline, double rate, int size, int rounds, double sliceS, double warmupS, long seed, Integer forks, Double threshold) {
            this(servers, load, protocol, path, connections, threads, keepalive, pipeline, rate, size, rounds, sliceS, warmupS, seed, forks,
                    threshold, null, null, null);
        }
    }

    /**
     * {@code target} is what was given after {@code NAME=}: a HOST:PORT, or with {@code command}
     * true the command that compare started afresh in every fork ({@code {port}} in it replaced by
     * a free port; {@code pid} is then null). {@code died} says why the server was given up, or is null.
     */
    public record Server(String name, String target, Long pid, String died, Boolean command) {
        public Server(String name, String target, Long pid, String died) {
            this(name, target, pid, died, null);
        }
    }

    /**
     * One slice, in the order it ran; {@code position} 0 is the first server visited in its round;
     * {@code round} counts over all forks; {@code fork} (from 1) is null in files written before forks,
     * {@code rulers} in files written before the nanosecond rulers.
     */
    public record Slice(int round, int position, String server, long requests, long errors, double seconds, Double rate,
                        Double p50Us, Double p99Us, Double serverCpuUsPerRequest, boolean refused, Integer fork, SliceRulers rulers) {
        public Slice(int round, int position, String server, long requests, long errors, double seconds, Double rate, Double p50Us,
                     Double p99Us, Double serverCpuUsPerRequest, boolean refused) {
            this(round, position, server, requests, errors, seconds, rate, p50Us, p99Us, serverCpuUsPerRequest, refused, null);
        }

        public Slice(int round, int position, String server, long requests, long errors, double seconds, Double rate, Double p50Us,
                     Double p99Us, Double serverCpuUsPerRequest, boolean refused, Integer fork) {
            this(round, position, server, requests, errors, seconds, rate, p50Us, p99Us, serverCpuUsPerRequest, refused, fork, null);
        }
    }

    /**
     * What was read around one slice, from the scheduler's nanosecond clocks: the CPU of the
     * server's process tree and of the client (echo-bench itself, or wrk), each as a share of the
     * slice's wall time in cores, the cores each could use and its busiest thread's share; whether
     * the client was saturated and the server not ({@code clientBound}: the rate is the client's);
     * the measured cores and the share of their capacity that other processes used
     * ({@code interference}), against {@code interferenceLimit} ({@code disturbed}). A field is null
     * where it could not be read.
     */
    public record SliceRulers(Long serverCpuNs, Long clientCpuNs, Double serverCpuShare, Double clientCpuShare, Double serverCores,
                              Double clientCores, Double serverPeakThread, Double clientPeakThread, Boolean clientBound, String cores,
                              Double interference, Double interferenceLimit, Boolean disturbed) {
    }

    /**
     * {@code intervalMethod} says how every ratio's interval was computed; {@code aaServer} names
     * the A/A twin of the baseline (null without one), whose rate interval's reach from 1 is the
     * {@code floor}, a check of the run; {@code threshold} is the verdicts', {@code thresholdSource}
     * where it came from ("--threshold", "default"; in files written before the threshold was fixed
     * before the data, "a/a floor" or "minimum"); {@code level} is the intervals' confidence (0.95, or
     * a sequential look's) and {@code looks} the looks of a run until decided (null otherwise).
     * The fields are null in files written before them.
     */
    public record Summary(List<ServerSummary> servers, List<Comparison> comparisons, Integer forks, String intervalMethod,
                          String aaServer, Double floor, Double threshold, String thresholdSource, Double level, Integer looks) {
        public Summary(List<ServerSummary> servers, List<Comparison> comparisons) {
            this(servers, comparisons, null, null, null, null, null, null);
        }

        public Summary(List<ServerSummary> servers, List<Comparison> comparisons, Integer forks, String intervalMethod, String aaServer,
                       Double floor, Double threshold, String thresholdSource) {
            this(servers, comparisons, forks, intervalMethod, aaServer, floor, threshold, thresholdSource, null, null);
        }
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

    /**
     * The ratio with its interval (summary.interval_method, at summary.level), where the interval
     * lies against 1 ({@code direction}), and the verdict against {@code threshold} ({@code verdict}:
     * above, below, same, undecided; {@code words}, the threshold on the line); {@code floor} is the
     * A/A twin's reach from 1 for this quantity, {@code betweenForkShare} the share of the variance
     * between forks, {@code detectable} the smallest difference (a fraction) this design detects
     * with 90% power. The added fields are null in files written before them.
     */
    public record Ratio(int rounds, double estimate, double low, double high, String direction, String words, String verdict,
                        Double threshold, Double floor, Integer forks, Double betweenForkShare, Double detectable) {
        public Ratio(int rounds, double estimate, double low, double high, String direction, String words) {
            this(rounds, estimate, low, high, direction, words, null, null, null, null, null);
        }

        public Ratio(int rounds, double estimate, double low, double high, String direction, String words, String verdict,
                     Double threshold, Double floor, Integer forks, Double betweenForkShare) {
            this(rounds, estimate, low, high, direction, words, verdict, threshold, floor, forks, betweenForkShare, null);
        }
    }
}
