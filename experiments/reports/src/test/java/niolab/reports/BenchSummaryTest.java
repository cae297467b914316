package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench-summary}: make bench-http's medians and ratios, computed from its samples. */
class BenchSummaryTest {
    /** A make bench-http run's samples and summary, as exp-http committed them before it moved to echo-bench compare. */
    private static final Path HTTP = Paths.get("src", "test", "resources", "bench-http");

    @Test
    void aCommittedSummaryFollowsFromItsSamples(@TempDir Path dir) throws Exception {
        Files.copy(HTTP.resolve("samples.csv"), dir.resolve("samples.csv"));
        assertThat(new CommandLine(new ExperimentReports()).execute("bench-summary", dir.toString())).isZero();
        assertThat(Files.readString(dir.resolve("summary.csv"))).isEqualTo(Files.readString(HTTP.resolve("summary.csv")));
    }

    @Test
    void mediansRatiosAndErrorsOfKnownSamples() {
        Csv samples = Csv.parse(String.join("\n",
                "server,mode,round,tool,requests_per_s,server_cpu_us_per_req,errors",
                "lt,keepalive,1,wrk,100,2.0,0",
                "lt,keepalive,1,echo-bench,90,2.5,1",
                "netty-nio,keepalive,1,wrk,50,4.0,0",
                "netty-nio,keepalive,1,echo-bench,40,,0",
                "lt,keepalive,2,wrk,300,4.0,0",
                "lt,keepalive,2,echo-bench,110,3.5,2",
                "netty-nio,keepalive,2,wrk,150,4.0,0",
                "netty-nio,keepalive,2,echo-bench,60,,0"), "samples.csv");
        assertThat(BenchSummary.summary(samples).split("\n")).containsExactly(BenchSummary.HEADER,
                "lt,keepalive,200,100,0.500,3.00,3.00,netty-nio,2.000,0.750,0,3",
                "netty-nio,keepalive,100,50,0.500,4.00,,,,,0,0");
    }

    /** Rounded as awk's printf rounds (the exact binary value, ties to even), not as String.format does. */
    @Test
    void fixedRoundsLikePrintf() {
        assertThat(BenchSummary.fixed(0.5, 0)).isEqualTo("0");
        assertThat(BenchSummary.fixed(1.5, 0)).isEqualTo("2");
        assertThat(BenchSummary.fixed(2.5, 0)).isEqualTo("2");
        assertThat(BenchSummary.fixed(1.0005, 3)).isEqualTo("1.000"); // 1.000499999... in binary
        assertThat(String.format(java.util.Locale.ROOT, "%.3f", 1.0005)).isEqualTo("1.001");
        assertThat(BenchSummary.fixed(Double.NaN, 2)).isEmpty();
    }
}
