package niolab.bench.report;

import java.util.List;
import java.util.Map;
import niolab.bench.ErrorClass;
import niolab.bench.RunResult;

/**
 * {@code --json FILE}: the configuration and every run with its counts, percentiles (µs) and
 * errors by class, plus the mean row, so reports can be regenerated from files.
 */
public final class JsonReport {
    private JsonReport() {
    }

    public static String render(Map<String, String> config, List<RunResult> runs) {
        Json j = new Json().begin().field("tool", "echo-bench").field("schema", 1L);
        j.object("config");
        for (Map.Entry<String, String> e : config.entrySet()) j.field(e.getKey(), e.getValue());
        j.end();
        j.beginArray("runs");
        for (RunResult r : runs) {
            j.begin().field("run", (long) r.run).field("requests", r.ok()).field("attempted", r.attempted());
            row(j, ResultTable.columns(r));
            j.object("errors");
            for (ErrorClass c : ErrorClass.values()) j.field(c.label, r.errors.get(c));
            j.end();
            j.end();
        }
        j.endArray();
        if (!runs.isEmpty()) {
            double[] mean = new double[8];
            for (RunResult r : runs) {
                double[] c = ResultTable.columns(r);
                for (int i = 0; i < c.length; i++) mean[i] += c[i] / runs.size();
            }
            j.object("mean");
            row(j, mean);
            j.end();
        }
        return j.end().toString();
    }

    private static void row(Json j, double[] c) {
        j.field("qps", c[0]).field("elapsed_s", c[7]);
        j.object("latency_us")
                .field("min", c[1]).field("p50", c[2]).field("p90", c[3]).field("p99", c[4])
                .field("p999", c[5]).field("max", c[6])
                .end();
    }
}
