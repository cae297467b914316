package niolab.bench.report;

import java.util.List;
import java.util.Locale;
import niolab.bench.RunResult;
import org.HdrHistogram.Histogram;

/**
 * The original write-up's table: {@code run qps min p50 p90 p99 p999 max elapsed}, latencies in µs and
 * elapsed in seconds, a row per run and a mean row (the mean of each column across runs).
 */
public final class ResultTable {
    static final String HEADER_FORMAT = "%-6s %10s %8s %8s %8s %8s %8s %8s %9s%n";
    static final String ROW_FORMAT = "%-6s %10.1f %8d %8d %8d %8d %8d %8d %9.3f%n";

    private ResultTable() {
    }

    public static String render(List<RunResult> runs) {
        return render(runs, false);
    }

    /** The table of the corrected latencies, or with {@code uncorrected} of those from the actual send. */
    public static String render(List<RunResult> runs, boolean uncorrected) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, HEADER_FORMAT, "run", "qps", "min", "p50", "p90", "p99", "p999", "max", "elapsed"));
        double[] sum = new double[8];
        for (RunResult r : runs) {
            double[] row = columns(r, uncorrected ? r.uncorrectedUs : r.latencyUs);
            for (int i = 0; i < row.length; i++) sum[i] += row[i];
            sb.append(row(Integer.toString(r.run), row));
        }
        if (!runs.isEmpty()) {
            for (int i = 0; i < sum.length; i++) sum[i] /= runs.size();
            sb.append(row("mean", sum));
        }
        return sb.toString();
    }

    /** qps, min, p50, p90, p99, p999, max (µs), elapsed (s). */
    public static double[] columns(RunResult r) {
        return columns(r, r.latencyUs);
    }

    /** The same columns with the latencies taken from {@code h}. */
    public static double[] columns(RunResult r, Histogram h) {
        boolean empty = h == null || h.getTotalCount() == 0;
        return new double[] {r.qps(), empty ? 0 : h.getMinValue(), pct(h, empty, 50), pct(h, empty, 90),
                pct(h, empty, 99), pct(h, empty, 99.9), empty ? 0 : h.getMaxValue(), r.elapsedSeconds()};
    }

    private static double pct(Histogram h, boolean empty, double p) {
        return empty ? 0 : h.getValueAtPercentile(p);
    }

    private static String row(String label, double[] c) {
        return String.format(Locale.ROOT, ROW_FORMAT, label, c[0], Math.round(c[1]), Math.round(c[2]),
                Math.round(c[3]), Math.round(c[4]), Math.round(c[5]), Math.round(c[6]), c[7]);
    }
}
