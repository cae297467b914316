package niolab.bench.report;

import java.net.InetAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import niolab.bench.ErrorClass;
import niolab.bench.ErrorCounts;
import niolab.bench.Proc;
import niolab.bench.RunResult;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Cpu;
import niolab.common.results.BenchReport.Errors;
import niolab.common.results.BenchReport.Latency;
import niolab.common.results.BenchReport.Mean;
import niolab.common.results.BenchReport.Run;
import niolab.common.results.BenchReport.Schedule;
import niolab.common.results.ResultsJson;
import org.HdrHistogram.Histogram;

/**
 * {@code --json FILE}: configuration, environment, the warm-up, every run (counts, percentiles
 * in µs, errors by class, CPU per request, schedule, interval series), the mean row and the
 * error totals, as lab-common's {@link BenchReport} (schema in {@code echo-bench/JSON-SCHEMA.md}).
 * Built once, after the last run: nothing here is on a request's path.
 */
public final class JsonReport {
    private JsonReport() {
    }

    public static String render(BenchReport.Config config, RunResult warmup, List<RunResult> runs) {
        return ResultsJson.compact(of(config, environment(), warmup, runs));
    }

    public static BenchReport of(BenchReport.Config config, BenchReport.Environment environment, RunResult warmup,
            List<RunResult> runs) {
        List<Run> rows = new ArrayList<>(runs.size());
        ErrorCounts total = new ErrorCounts();
        double[] mean = new double[8];
        for (RunResult r : runs) {
            rows.add(run(r));
            total.addAll(r.errors);
            double[] c = ResultTable.columns(r);
            for (int i = 0; i < c.length; i++) mean[i] += c[i] / runs.size();
        }
        return new BenchReport(BenchReport.TOOL, BenchReport.SCHEMA, config, environment, warmup == null ? null : run(warmup),
                rows, runs.isEmpty() ? null : new Mean(mean[0], mean[7], latency(mean)), errors(total));
    }

    /** Host, cores, OS, kernel, JDK, time, and the kernel settings short connections depend on. */
    public static BenchReport.Environment environment() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = System.getenv().getOrDefault("HOSTNAME", "unknown");
        }
        return new BenchReport.Environment(host, Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"), System.getProperty("java.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), Proc.localPortRange(), Proc.twReuse());
    }

    private static Run run(RunResult r) {
        double[] c = ResultTable.columns(r);
        boolean rated = r.uncorrectedUs != null;
        List<BenchReport.Interval> intervals = new ArrayList<>(r.intervals.size());
        for (RunResult.Interval i : r.intervals) {
            intervals.add(new BenchReport.Interval(i.endSeconds, i.seconds, i.requests, i.qps(), i.p99Us, i.errors));
        }
        return new Run(r.run, r.ok(), r.attempted(), c[0], c[7], latency(c),
                rated ? latency(ResultTable.columns(r, r.uncorrectedUs)) : null, errors(r.errors),
                new Cpu(ResultsJson.orNull(r.clientCpuUsPerRequest()), ResultsJson.orNull(r.clientThreadCpuUsPerRequest()),
                        ResultsJson.orNull(r.serverCpuUsPerRequest())),
                rated ? new Schedule(r.late, r.maxLagNanos / 1000) : null, r.timeWait < 0 ? null : r.timeWait, intervals);
    }

    /** The latency columns of a {@link ResultTable#columns(RunResult, Histogram)} row. */
    private static Latency latency(double[] c) {
        return new Latency(c[1], c[2], c[3], c[4], c[5], c[6]);
    }

    public static Errors errors(ErrorCounts e) {
        return new Errors(e.get(ErrorClass.REFUSED), e.get(ErrorClass.RESET), e.get(ErrorClass.TIMEOUT), e.get(ErrorClass.SHORT),
                e.get(ErrorClass.MISMATCH), e.get(ErrorClass.PORTS), e.get(ErrorClass.OTHER));
    }
}
