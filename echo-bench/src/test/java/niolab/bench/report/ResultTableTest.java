package niolab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import niolab.bench.ErrorClass;
import niolab.bench.RunResult;
import org.junit.jupiter.api.Test;

class ResultTableTest {

    /** Latencies 1..1000 µs: every percentile is known exactly (values under 2048 are exact at 3 digits). */
    private static RunResult uniform(int run, long elapsedNanos) {
        RunResult r = new RunResult(run);
        for (int v = 1; v <= 1000; v++) r.latencyUs.recordValue(v);
        r.elapsedNanos = elapsedNanos;
        return r;
    }

    @Test
    void percentilesOfKnownInputs() {
        RunResult r = uniform(1, 500_000_000L);
        assertThat(r.min()).isEqualTo(1);
        assertThat(r.percentile(50)).isEqualTo(500);
        assertThat(r.percentile(90)).isEqualTo(900);
        assertThat(r.percentile(99)).isEqualTo(990);
        assertThat(r.percentile(99.9)).isEqualTo(999);
        assertThat(r.max()).isEqualTo(1000);
        assertThat(r.qps()).isEqualTo(2000.0);
    }

    @Test
    void tableHasTheSeedColumnsARowPerRunAndTheMeanOfEachColumn() {
        RunResult a = uniform(1, 1_000_000_000L); // 1000 qps
        RunResult b = uniform(2, 500_000_000L);   // 2000 qps
        String[] lines = ResultTable.render(List.of(a, b)).split("\n");
        assertThat(lines).hasSize(4);
        assertThat(lines[0].trim().split("\\s+")).containsExactly("run", "qps", "min", "p50", "p90", "p99", "p999", "max", "elapsed");
        assertThat(lines[1].trim().split("\\s+")).containsExactly("1", "1000.0", "1", "500", "900", "990", "999", "1000", "1.000");
        assertThat(lines[2].trim().split("\\s+")).containsExactly("2", "2000.0", "1", "500", "900", "990", "999", "1000", "0.500");
        assertThat(lines[3].trim().split("\\s+")).containsExactly("mean", "1500.0", "1", "500", "900", "990", "999", "1000", "0.750");
    }

    @Test
    void errorsAreCountedByClassAndSummarised() {
        RunResult r = new RunResult(1);
        r.errors.add(ErrorClass.RESET);
        r.errors.add(ErrorClass.RESET);
        r.errors.add(ErrorClass.PORTS);
        assertThat(r.errors.total()).isEqualTo(3);
        assertThat(r.errors.summary()).isEqualTo("reset=2 ports_exhausted=1");
        assertThat(r.attempted()).isEqualTo(3);
        assertThat(r.qps()).isZero();
    }

    @Test
    void exceptionsMapToTheirClass() {
        assertThat(ErrorClass.of(new java.net.ConnectException("Connection refused"))).isEqualTo(ErrorClass.REFUSED);
        assertThat(ErrorClass.of(new java.net.BindException("Cannot assign requested address"))).isEqualTo(ErrorClass.PORTS);
        assertThat(ErrorClass.of(new java.net.SocketTimeoutException("Read timed out"))).isEqualTo(ErrorClass.TIMEOUT);
        assertThat(ErrorClass.of(new java.net.SocketException("Connection reset"))).isEqualTo(ErrorClass.RESET);
        assertThat(ErrorClass.of(new java.io.EOFException("closed"))).isEqualTo(ErrorClass.SHORT);
    }
}
