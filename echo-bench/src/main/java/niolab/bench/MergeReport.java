package niolab.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import niolab.bench.report.ResultTable;
import niolab.common.results.BenchMerge;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Latency;

/**
 * What {@code echo-bench merge} prints and writes: the original write-up's table with a row per tag (each
 * generator, then its uncorrected twin under --rate) and a union row (and a union of the
 * uncorrected histograms when a generator ran under --rate), a line per generator with its
 * achieved rate, the warnings; and the same as JSON and CSV.
 */
final class MergeReport {
    private static final String UNION = "union";

    private final List<Path> files;
    private final List<TagSeries> generators;
    private final List<TagSeries> rows = new ArrayList<>();
    private final long commonMillis;
    private final List<String> warnings;

    MergeReport(List<Path> files, Map<String, TagSeries> tags, List<TagSeries> generators, long commonMillis, List<String> warnings) {
        this.files = files;
        this.generators = generators;
        this.commonMillis = commonMillis;
        this.warnings = warnings;
        TagSeries union = new TagSeries(UNION, null);
        TagSeries unionUncorrected = new TagSeries(UNION + IntervalLog.UNCORRECTED, null);
        boolean rated = false;
        for (TagSeries g : generators) {
            TagSeries twin = tags.get(g.tag + IntervalLog.UNCORRECTED);
            rows.add(g);
            if (twin != null) rows.add(twin);
            union.add(g);
            // a closed loop measures from the actual send: its one histogram is also its uncorrected one
            unionUncorrected.add(twin != null ? twin : g);
            rated |= twin != null;
        }
        rows.add(union);
        if (rated) rows.add(unionUncorrected);
    }

    String text() {
        StringBuilder sb = new StringBuilder();
        List<String> names = new ArrayList<>();
        for (Path f : files) names.add(f.toString());
        sb.append(String.format(Locale.ROOT, "# echo-bench merge: %d generator%s in %s; %.3f s in common%n", generators.size(),
                generators.size() == 1 ? "" : "s", String.join(", ", names), commonMillis / 1000.0));
        sb.append(table());
        for (TagSeries g : generators) {
            sb.append(String.format(Locale.ROOT, "%s: %s, started %s, achieved %.1f/s", g.tag, g.file, Instant.ofEpochMilli(g.startMillis),
                    g.asRun().qps()));
            sb.append(g.targetRate > 0
                    ? String.format(Locale.ROOT, " (target %.1f/s; %d requests started more than 1 ms late, max lag %.1f ms)%n",
                            g.targetRate, g.late, g.maxLagMillis)
                    : String.format(" (no schedule in the log: a closed loop)%n"));
        }
        for (String w : warnings) sb.append("warning: ").append(w).append('\n');
        return sb.toString();
    }

    /** ResultTable's columns, with the first one as wide as the longest tag. */
    private String table() {
        int width = 6;
        for (TagSeries r : rows) width = Math.max(width, r.tag.length());
        String label = "%-" + width + "s";
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, label + " %10s %8s %8s %8s %8s %8s %8s %9s%n",
                "run", "qps", "min", "p50", "p90", "p99", "p999", "max", "elapsed"));
        for (TagSeries r : rows) {
            double[] c = ResultTable.columns(r.asRun());
            sb.append(String.format(Locale.ROOT, label + " %10.1f %8d %8d %8d %8d %8d %8d %9.3f%n", r.tag, c[0], Math.round(c[1]),
                    Math.round(c[2]), Math.round(c[3]), Math.round(c[4]), Math.round(c[5]), Math.round(c[6]), c[7]));
        }
        return sb.toString();
    }

    BenchMerge json() {
        List<String> names = new ArrayList<>();
        for (Path f : files) names.add(f.toString());
        List<BenchMerge.Generator> gens = new ArrayList<>();
        for (TagSeries g : generators) {
            gens.add(new BenchMerge.Generator(g.tag, g.file, Instant.ofEpochMilli(g.startMillis).toString(),
                    Instant.ofEpochMilli(g.endMillis).toString(), g.asRun().qps(),
                    g.targetRate > 0 ? new BenchMerge.Schedule(g.targetRate, g.late, Math.round(g.maxLagMillis * 1000)) : null));
        }
        List<BenchMerge.Row> table = new ArrayList<>();
        for (TagSeries r : rows) {
            double[] c = ResultTable.columns(r.asRun());
            table.add(new BenchMerge.Row(r.tag, r.latencyUs.getTotalCount(), c[0], c[7], new Latency(c[1], c[2], c[3], c[4], c[5], c[6])));
        }
        return new BenchMerge(BenchReport.TOOL, BenchReport.SCHEMA, BenchMerge.COMMAND, names, commonMillis / 1000.0, gens, table, warnings);
    }

    String csv() {
        StringBuilder sb = new StringBuilder("tag,file,requests,qps,min_us,p50_us,p90_us,p99_us,p999_us,max_us,elapsed_s,"
                + "start,target_rate,late,max_lag_us\n");
        for (TagSeries r : rows) {
            double[] c = ResultTable.columns(r.asRun());
            sb.append(String.format(Locale.ROOT, "%s,%s,%d,%.1f,%d,%d,%d,%d,%d,%d,%.3f,%s,", r.tag, r.file == null ? "" : r.file,
                    r.latencyUs.getTotalCount(), c[0], Math.round(c[1]), Math.round(c[2]), Math.round(c[3]), Math.round(c[4]),
                    Math.round(c[5]), Math.round(c[6]), c[7], Instant.ofEpochMilli(r.startMillis)));
            sb.append(r.targetRate > 0 ? String.format(Locale.ROOT, "%.1f,%d,%d", r.targetRate, r.late, Math.round(r.maxLagMillis * 1000)) : ",,");
            sb.append('\n');
        }
        return sb.toString();
    }
}
