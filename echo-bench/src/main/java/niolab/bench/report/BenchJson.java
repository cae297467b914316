package niolab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One echo-bench {@code --json} file, read back for a report (schema: echo-bench/JSON-SCHEMA.md). */
public final class BenchJson {
    /** The seed's columns, in its order. */
    public static final String[] COLUMNS = {"qps", "min", "p50", "p90", "p99", "p999", "max", "elapsed_s"};

    public final Map<String, Object> doc;

    public BenchJson(Map<String, Object> doc) {
        this.doc = doc;
    }

    public static BenchJson read(Results r, String file) {
        return new BenchJson(r.json(file));
    }

    public List<Object> runs() {
        return Results.list(doc, "runs");
    }

    /** A run's value of one of {@link #COLUMNS}. */
    public static double column(Object run, String column) {
        switch (column) {
            case "qps":
            case "elapsed_s":
                return Results.num(run, column);
            default:
                return Results.num(run, "latency_us", column);
        }
    }

    /** One column over all runs. */
    public double[] column(String column) {
        List<Object> runs = runs();
        double[] v = new double[runs.size()];
        for (int i = 0; i < v.length; i++) v[i] = column(runs.get(i), column);
        return v;
    }

    /** Median over the runs of one column. */
    public double median(String column) {
        return Stats.median(column(column));
    }

    public double mean(String column) {
        return Stats.mean(column(column));
    }

    /** Server CPU µs per request, median over the runs (NaN when not measured). */
    public double serverCpuPerRequest() {
        List<Object> runs = runs();
        double[] v = new double[runs.size()];
        for (int i = 0; i < v.length; i++) {
            Object s = ((Map<?, ?>) Results.get(runs.get(i), "cpu_us_per_request")).get("server");
            v[i] = s instanceof Number ? ((Number) s).doubleValue() : Double.NaN;
        }
        return Stats.median(v);
    }

    /** Failed requests over all runs. */
    public long errors() {
        long n = 0;
        for (Object run : runs()) {
            for (Object v : ((Map<?, ?>) Results.get(run, "errors")).values()) n += ((Number) v).longValue();
        }
        return n;
    }

    /** The seed's table rows for every run plus the mean row, formatted. */
    public List<List<String>> seedRows(String meanLabel) {
        List<List<String>> rows = new ArrayList<>();
        int i = 1;
        for (Object run : runs()) rows.add(row("Run " + i++, run));
        double[] mean = new double[COLUMNS.length];
        for (int c = 0; c < COLUMNS.length; c++) mean[c] = mean(COLUMNS[c]);
        rows.add(formatted(meanLabel, mean));
        return rows;
    }

    private static List<String> row(String label, Object run) {
        double[] v = new double[COLUMNS.length];
        for (int c = 0; c < COLUMNS.length; c++) v[c] = column(run, COLUMNS[c]);
        return formatted(label, v);
    }

    private static List<String> formatted(String label, double[] v) {
        return List.of(label, Md.f1(v[0]), Md.us(v[1]), Md.us(v[2]), Md.us(v[3]), Md.us(v[4]), Md.us(v[5]),
                Md.us(v[6]), Md.f3(v[7]) + " s");
    }

    public static List<String> seedHeader() {
        return List.of("run", "QPS", "min", "P50", "P90", "P99", "P999", "max", "elapsed");
    }
}
