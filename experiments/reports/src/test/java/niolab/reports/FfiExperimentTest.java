package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** exp-ffi's arithmetic: the binding's predicted cost per request, and the client's calls per request. */
class FfiExperimentTest {
    /**
     * Fastest rounds: C 100 ns a call; JNA adds 60, 50, 40; FFM 30 plain everywhere, 5 critical
     * for read and send. The medians, 1000 ns everywhere, must play no part.
     */
    private static final FfiExperiment.Overheads OVERHEADS = new FfiExperiment.Overheads(Map.of(
            "epollWait", cost("epollWait", 160.0, 130.0, null),
            "readEagain", cost("readEagain", 150.0, 130.0, 105.0),
            "send64", cost("send64", 140.0, 130.0, 105.0)));

    private static FfiExperiment.CallCost cost(String call, double jna, double ffm, Double critical) {
        Double median = 1000.0;
        return new FfiExperiment.CallCost(call, median, median, median, critical == null ? null : median, median,
                100.0, jna, ffm, critical, 150.0, 0.0, 0.0, critical == null ? null : 0.0, 0.0);
    }

    private static ServerCounters counters(long waits, long reads, long writes, long accepts, long closes) {
        return new ServerCounters(Map.of("epoll_waits", waits, "reads", reads, "reads_eagain", 0L, "writes", writes,
                "writes_eagain", 0L, "accepts", accepts, "closes", closes));
    }

    @Test
    void theLabsFfmBindingIsCriticalExceptForEpollWait() {
        assertThat(OVERHEADS.jna("epollWait")).isEqualTo(60);
        assertThat(OVERHEADS.ffm("epollWait")).isEqualTo(30);
        assertThat(OVERHEADS.ffm("readEagain")).isEqualTo(5);
        assertThat(OVERHEADS.of("ffm", "send64")).isEqualTo(5);
        assertThat(OVERHEADS.of("jna", "send64")).isEqualTo(40);
    }

    @Test
    void predictedCostIsCallsPerRequestTimesOverheadPerCall() {
        // 10 requests: 10 waits at epoll_wait's overhead, 20 reads and 10 writes at read's
        assertThat(FfiExperiment.bindingNsPerRequest(counters(10, 20, 10, 0, 0), 10, OVERHEADS, "jna"))
                .isCloseTo((10 * 60 + 30 * 50) / 10.0, offset(1e-9));
        assertThat(FfiExperiment.bindingNsPerRequest(counters(10, 20, 10, 0, 0), 10, OVERHEADS, "ffm"))
                .isCloseTo((10 * 30 + 30 * 5) / 10.0, offset(1e-9));
        assertThat(FfiExperiment.bindingNsPerRequest(counters(0, 0, 0, 1, 1), 1, OVERHEADS, "jna")).isCloseTo(100, offset(1e-9));
    }

    @Test
    void aCallWhoseBindingBeatsCIsNotResolved() {
        FfiExperiment.Overheads noisy = new FfiExperiment.Overheads(Map.of("send64", cost("send64", 140.0, 90.0, 95.0)));
        assertThat(noisy.resolved("send64")).isFalse();
        assertThat(OVERHEADS.resolved("send64")).isTrue();
    }

    @Test
    void clientCallsPerRequestAreTheDifferenceOfTwoRunLengths() {
        Csv csv = Csv.parse("requests,syscall,calls,errors\n500,socket,510,0\n500,futex,700,3\n500,execve,15,9\n"
                + "1000,socket,1010,0\n1000,futex,800,3\n1000,execve,15,9\n", "test");
        FfiExperiment.ClientCalls calls = FfiExperiment.clientCalls(csv);
        assertThat(calls.total()).isCloseTo(1.2, offset(1e-9));
        assertThat(calls.beyond()).isCloseTo(0.2, offset(1e-9));
        Report out = new Report();
        String table = FfiExperiment.renderClient(calls, out);
        assertThat(table).contains("| `socket` | 1.00 |").contains("| `futex` | 0.20 |").doesNotContain("execve");
        assertThat(out.values.get("client_total")).isEqualTo("1.2");
        assertThat(out.values.get("client_beyond")).as("futex: not a call a minimal client makes").isEqualTo("0.2");
        assertThat(out.values.get("client_runs")).isEqualTo("500 and 1000");
    }

    /**
     * The committed run has both bindings and the paired comparison; a build with JNA only, results
     * from before the compare, or a quiet machine choose the template's other sentences.
     */
    @Test
    void theTemplateSaysWhatARunWithoutFfmOrComparesLacks() throws IOException {
        Report out = new Report().put("env", "").put("threshold", FfiExperiment.THRESHOLD.declared());
        FfiExperiment.render(FfiExperiment.analyse(FfiExperiment.load(new Results(Path.of("..", "results", "ffi")))), out);
        String template = Files.readString(Path.of("..", "templates", "exp-ffi.md"), StandardCharsets.UTF_8);
        assertThat(out.fill(template, "exp-ffi.md")).contains("Bindings measured: JNA and FFM.").contains("keepalive-echo: FFM over JNA ")
                .contains("(the lab's claim, as fast or faster with CPU no higher: ");
        out.put("ffm", false).put("paired", false).put("compare_tables", "").put("cold_client", false).put("load_shared", false);
        assertThat(out.fill(template, "exp-ffi.md")).contains("JNA only: this build's `et` has no `--binding ffm`")
                .contains("End to end: not measured (no FFM binding in this build).").contains("These results predate the paired comparison")
                .contains("echo-bench's serial client, as it was at the run's commit").contains("CPUs: no more runnable tasks than CPUs.");
    }
}
