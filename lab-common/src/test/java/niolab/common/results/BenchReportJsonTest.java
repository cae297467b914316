package niolab.common.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.BenchReport.Config;
import niolab.common.results.BenchReport.Cpu;
import niolab.common.results.BenchReport.Environment;
import niolab.common.results.BenchReport.Errors;
import niolab.common.results.BenchReport.Interval;
import niolab.common.results.BenchReport.Latency;
import niolab.common.results.BenchReport.Mean;
import niolab.common.results.BenchReport.Run;
import niolab.common.results.BenchReport.Schedule;
import org.junit.jupiter.api.Test;

/** The run report's one mapping: records to JSON and back, the schema's names, order and null rules. */
class BenchReportJsonTest {
    private static final Latency LATENCY = new Latency(21, 40, 61, 350, 3189, 10751);
    private static final Errors NO_ERRORS = new Errors(0, 0, 0, 0, 0, 0, 0);

    private static Config config(double rate, Long serverPid) {
        return new Config("127.0.0.1:9988", "echo", null, "keepalive", 50, 2, true, 1, null, 2.0, "1000", rate, 2,
                null, 64, 1, 5000, 1.0, false, 0.001, serverPid, null, null, null);
    }

    private static Environment environment() {
        return new Environment("lab", 2, "Linux", "6.1.0", "amd64", "17.0.15", "OpenJDK 64-Bit Server VM 17.0.15", "2026-11-29T21:00:00Z",
                "32768-60999", "2");
    }

    /** A closed-loop run: no uncorrected latencies, no schedule; CPU of the server and TIME-WAIT unknown. */
    private static Run closedLoop(int n) {
        return new Run(n, 39998, 40000, 19999.0, 2.0, LATENCY, null, new Errors(1, 0, 0, 1, 0, 0, 0), new Cpu(7.2, 6.75, null), null, null,
                List.of(new Interval(1.0, 1.0, 20001, 20001.0, 180, 1), new Interval(2.0, 1.0, 19997, 19997.0, 175, 1)));
    }

    /** A run under --rate: both latency rows and the schedule. */
    private static Run rated(int n) {
        return new Run(n, 100, 100, 50.5, 1.981, LATENCY, new Latency(20, 38, 55, 300, 2000, 9000), NO_ERRORS, new Cpu(40.5, 20.25, 6.125),
                new Schedule(3, 201300), 120L, List.of());
    }

    @Test
    void aReportReadsBackAsTheRecordItWasWrittenFrom() {
        BenchReport closed = new BenchReport(BenchReport.TOOL, BenchReport.SCHEMA, config(0.0, null), environment(), null,
                List.of(closedLoop(1), closedLoop(2)), new Mean(19999.0, 2.0, LATENCY), new Errors(2, 0, 0, 2, 0, 0, 0));
        BenchReport open = new BenchReport(BenchReport.TOOL, BenchReport.SCHEMA, config(50.0, 1234L), environment(), rated(0),
                List.of(rated(1)), new Mean(50.5, 1.981, LATENCY), NO_ERRORS);
        BenchReport empty = new BenchReport(BenchReport.TOOL, BenchReport.SCHEMA, config(0.0, null), environment(), null, List.of(), null, NO_ERRORS);
        for (BenchReport b : List.of(closed, open, empty)) {
            assertThat(ResultsJson.read(ResultsJson.compact(b), BenchReport.class)).isEqualTo(b);
            assertThat(ResultsJson.read(ResultsJson.pretty(b), BenchReport.class)).isEqualTo(b);
        }
    }

    @Test
    void fieldsComeInTheSchemasOrderWithItsNamesAndNullRules() throws Exception {
        BenchReport b = new BenchReport(BenchReport.TOOL, BenchReport.SCHEMA, config(0.0, null), environment(), null,
                List.of(closedLoop(1)), new Mean(19999.0, 2.0, LATENCY), NO_ERRORS);
        JsonNode doc = ResultsJson.MAPPER.readTree(ResultsJson.compact(b));
        assertThat(names(doc)).containsExactly("tool", "schema", "config", "environment", "warmup", "runs", "mean", "errors");
        assertThat(names(doc.get("config"))).containsExactly("target", "protocol", "path", "mode", "connections", "threads", "keepalive",
                "pipeline", "requests", "duration_s", "warmup", "rate", "runs", "client_warmup_requests", "size", "seed", "timeout_ms",
                "interval_s", "linger0", "max_error_rate", "server_pid", "hlog", "tag", "start_at");
        // closed loop: no uncorrected row, no schedule; unknowns are null, not absent
        assertThat(names(doc.get("runs").get(0))).containsExactly("run", "requests", "attempted", "qps", "elapsed_s", "latency_us",
                "errors", "cpu_us_per_request", "time_wait", "intervals");
        assertThat(names(doc.get("runs").get(0).get("errors"))).containsExactly("refused", "reset", "timeout", "short", "mismatch",
                "ports_exhausted", "other");
        assertThat(names(doc.get("runs").get(0).get("intervals").get(0))).containsExactly("t_s", "seconds", "requests", "qps", "p99_us", "errors");
        assertThat(doc.get("warmup").isNull()).isTrue();
        assertThat(doc.get("runs").get(0).get("time_wait").isNull()).isTrue();
        assertThat(doc.get("runs").get(0).get("cpu_us_per_request").get("server").isNull()).isTrue();
        assertThat(doc.get("config").get("path").isNull()).isTrue();
        // under --rate both rows and the schedule, in the schema's places
        BenchReport r = new BenchReport(BenchReport.TOOL, BenchReport.SCHEMA, config(50.0, 7L), environment(), null, List.of(rated(1)), null, NO_ERRORS);
        JsonNode run = ResultsJson.MAPPER.readTree(ResultsJson.compact(r)).get("runs").get(0);
        assertThat(names(run)).containsExactly("run", "requests", "attempted", "qps", "elapsed_s", "latency_us", "uncorrected_latency_us",
                "errors", "cpu_us_per_request", "schedule", "time_wait", "intervals");
        assertThat(names(ResultsJson.MAPPER.readTree(ResultsJson.compact(r)))).doesNotContain("mean");
    }

    @Test
    void numbersHaveThreeDecimalsAndAnUnmeasuredOneIsNull() {
        assertThat(ResultsJson.compact(new Latency(21, 40.5, 61.25, 1e7, 0.0004, 123456789.1234)))
                .isEqualTo("{\"min\":21.000,\"p50\":40.500,\"p90\":61.250,\"p99\":10000000.000,\"p999\":0.000,\"max\":123456789.123}");
        assertThat(ResultsJson.compact(new Cpu(Double.NaN, 1.0, null))).isEqualTo("{\"client_process\":null,\"client_threads\":1.000,\"server\":null}");
    }

    @Test
    void aNullCountOrAMistypedFieldIsAnError() {
        assertThatThrownBy(() -> ResultsJson.read("{\"late\":null,\"max_lag_us\":1}", Schedule.class)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ResultsJson.read("{\"late\":\"x\",\"max_lag_us\":1}", Schedule.class)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ResultsJson.read("{\"late\":1,\"max_lag_us\":2,\"added_later\":3}", Schedule.class)).isEqualTo(new Schedule(1, 2));
    }

    @Test
    void columnsFollowTheSeedsTable() {
        BenchReport b = new BenchReport(BenchReport.TOOL, BenchReport.SCHEMA, config(0.0, null), environment(), null,
                List.of(closedLoop(1), rated(2)), null, NO_ERRORS);
        assertThat(b.column(Column.QPS)).containsExactly(19999.0, 50.5);
        assertThat(b.column(Column.P999)).containsExactly(3189.0, 3189.0);
        assertThat(b.column(Column.ELAPSED)).containsExactly(2.0, 1.981);
        assertThat(b.serverCpuPerRun()).containsExactly(Double.NaN, 6.125);
    }

    @Test
    void compareAndMergeReportsReadBackAsWritten() throws Exception {
        BenchComparison.Config config = new BenchComparison.Config("a=127.0.0.1:1 b=127.0.0.1:2", "echo-bench", "echo", null, 50, null, true, 1, 0,
                64, 20, 1.0, 2.0, 8412);
        BenchComparison.Ratio rate = new BenchComparison.Ratio(20, 0.995, 0.981, 1.008, "none", "no difference this run can resolve (±1.9%)");
        BenchComparison compare = new BenchComparison(BenchReport.TOOL, BenchReport.SCHEMA, BenchComparison.COMMAND, config, environment(),
                List.of(new BenchComparison.Server("a", "127.0.0.1:1", 1234L, null), new BenchComparison.Server("b", "127.0.0.1:2", null, "died in round 7")),
                List.of(new BenchComparison.Slice(1, 0, "b", 0, 3, 1.001, null, null, null, null, true),
                        new BenchComparison.Slice(1, 1, "a", 101234, 0, 1.0, 101133.9, 410.0, 980.0, 8.1, false)),
                new BenchComparison.Summary(List.of(new BenchComparison.ServerSummary("a", 1, 0, 101133.9, 101133.9, 101133.9, 101133.9, 101133.9, 8.1, 980.0),
                        new BenchComparison.ServerSummary("b", 0, 3, null, null, null, null, null, null, null)),
                        List.of(new BenchComparison.Comparison("b", "a", rate, null, null))));
        String json = ResultsJson.compact(compare);
        assertThat(ResultsJson.read(json, BenchComparison.class)).isEqualTo(compare);
        JsonNode never = ResultsJson.MAPPER.readTree(json).at("/summary/servers/1");
        assertThat(names(never)).containsExactly("name", "slices", "errors", "median_cpu_us_per_request", "median_p99_us");
        assertThat(ResultsJson.MAPPER.readTree(json).at("/summary/comparisons/0/cpu_per_request").isNull()).isTrue();

        BenchMerge merge = new BenchMerge(BenchReport.TOOL, BenchReport.SCHEMA, BenchMerge.COMMAND, List.of("a.hlog", "b.hlog"), 59.8,
                List.of(new BenchMerge.Generator("gen-a", "a.hlog", "2026-05-01T12:00:02.013Z", "2026-05-01T12:01:02.014Z", 19998.2,
                        new BenchMerge.Schedule(20000, 3, 1250)), new BenchMerge.Generator("gen-b", "b.hlog", "x", "y", 1.5, null)),
                List.of(new BenchMerge.Row("union", 1199890, 19998.2, 60.001, LATENCY)), List.of("gen-b fell behind its schedule"));
        assertThat(ResultsJson.read(ResultsJson.compact(merge), BenchMerge.class)).isEqualTo(merge);
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> i = node.fieldNames(); i.hasNext();) names.add(i.next());
        return names;
    }
}
