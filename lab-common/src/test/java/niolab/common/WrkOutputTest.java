package niolab.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WrkOutputTest {
    /** wrk 4.2's text for `wrk -t1 -c50 -d1s --latency URL`, with errors. */
    private static final String WITH_LATENCY = """
            Running 1s test @ http://127.0.0.1:20001/ping
              1 threads and 50 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency   389.51us  240.13us   3.63ms   64.62%
                Req/Sec    25.71k     3.19k   35.12k    74.51%
              Latency Distribution
                 50%  352.00us
                 75%  480.00us
                 90%  610.00us
                 99%    1.02ms
              25806 requests in 1.01s, 2.56MB read
              Socket errors: connect 0, read 2, write 0, timeout 1
              Non-2xx or 3xx responses: 4
            Requests/sec:  25575.98
            Transfer/sec:      2.56MB
            """;

    /** The committed exp-http output of a run without --latency. */
    private static final String WITHOUT_LATENCY = """
            Running 5s test @ http://127.0.0.1:19681/ping
              1 threads and 50 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency   729.13us  419.49us   3.13ms   62.20%
                Req/Sec    25.71k     3.19k   35.12k    74.51%
              130389 requests in 5.10s, 13.06MB read
            Requests/sec:  25575.98
            Transfer/sec:      2.56MB
            """;

    @Test
    void readsTheRateThePercentilesAndEveryErrorKind() {
        WrkOutput w = WrkOutput.parse(WITH_LATENCY);
        assertThat(w.requests()).isEqualTo(25806);
        assertThat(w.seconds()).isEqualTo(1.01);
        assertThat(w.requestsPerSecond()).isEqualTo(25575.98);
        assertThat(w.p50Us()).isEqualTo(352.0);
        assertThat(w.p99Us()).isEqualTo(1020.0);
        assertThat(w.errors()).isEqualTo(7);
    }

    @Test
    void percentilesAreUnknownWithoutLatencyAndErrorsZero() {
        WrkOutput w = WrkOutput.parse(WITHOUT_LATENCY);
        assertThat(w.requests()).isEqualTo(130389);
        assertThat(w.seconds()).isEqualTo(5.10);
        assertThat(w.p99Us()).isNaN();
        assertThat(w.errors()).isZero();
    }

    @Test
    void aRunThatCouldNotConnectIsNamedAsSuch() {
        assertThatThrownBy(() -> WrkOutput.parse("unable to connect to 127.0.0.1:20001 Connection refused\n"))
                .isInstanceOf(WrkOutput.NotWrkOutput.class)
                .hasMessage("not a finished wrk run: unable to connect to 127.0.0.1:20001 Connection refused");
    }
}
