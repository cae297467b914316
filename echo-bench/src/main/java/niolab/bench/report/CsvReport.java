package niolab.bench.report;

import java.util.List;
import java.util.Locale;
import niolab.bench.ErrorClass;
import niolab.bench.RunResult;

/**
 * {@code --csv FILE}: a header and a row per run (no mean row: spreadsheets compute it). Latencies
 * in µs; the {@code uncorrected_*} columns are empty without {@code --rate}, the CPU columns
 * empty when unknown.
 */
public final class CsvReport {
    private CsvReport() {
    }

    public static String render(List<RunResult> runs) {
        StringBuilder sb = new StringBuilder(
                "run,requests,attempted,errors,qps,min_us,p50_us,p90_us,p99_us,p999_us,max_us,elapsed_s,"
                        + "uncorrected_p50_us,uncorrected_p99_us,uncorrected_max_us,"
                        + "client_cpu_us_per_req,client_thread_cpu_us_per_req,server_cpu_us_per_req");
        for (ErrorClass c : ErrorClass.values()) sb.append(',').append(c.label);
        sb.append('\n');
        for (RunResult r : runs) {
            double[] c = ResultTable.columns(r);
            sb.append(String.format(Locale.ROOT, "%d,%d,%d,%d,%.1f,%d,%d,%d,%d,%d,%d,%.6f,", r.run, r.ok(),
                    r.attempted(), r.errors.total(), c[0], Math.round(c[1]), Math.round(c[2]), Math.round(c[3]),
                    Math.round(c[4]), Math.round(c[5]), Math.round(c[6]), c[7]));
            if (r.uncorrectedUs != null) {
                double[] u = ResultTable.columns(r, r.uncorrectedUs);
                sb.append(Math.round(u[2])).append(',').append(Math.round(u[4])).append(',').append(Math.round(u[6])).append(',');
            } else {
                sb.append(",,,");
            }
            sb.append(num(r.clientCpuUsPerRequest())).append(',').append(num(r.clientThreadCpuUsPerRequest())).append(',')
                    .append(num(r.serverCpuUsPerRequest()));
            for (ErrorClass e : ErrorClass.values()) sb.append(',').append(r.errors.get(e));
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "";
    }
}
