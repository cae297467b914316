package niolab.reports;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code summarize}: every number the bench and experiment scripts save, computed from what they
 * saved raw (the scripts run things; this computes, once).
 *
 * <pre>
 *   summarize runs raw/runs.csv --proc raw/proc.txt --out server,round,requests_per_s,cpu_us=proc_cpu_us_per_req
 *   summarize medians samples.csv --by server,workload --ratios server=lt
 *   summarize strace trace.txt --process server                    # StraceCount
 *   summarize ffi RESULTS_DIR                                       # FfiCalls
 * </pre>
 */
@Command(name = "summarize", mixinStandardHelpOptions = true, subcommands = {SummarizeRuns.class, Summarize.Medians.class,
        StraceCount.class, FfiCalls.class, TimeWaitCounts.Timeline.class, TimeWaitCounts.Holders.class},
        description = "Computes the scripts' CSV rows from their raw output: runs (a row per run), medians (over rounds), "
                + "strace (a trace's calls), ffi (make bench-ffi's per-call figures), tw-timeline and tw-holders (TIME-WAIT).")
final class Summarize {
    private Summarize() {
    }

    /**
     * {@code medians CSV --by COL,...}: the medians over the rows (the rounds) of each group of
     * rows with the same --by values, for every other column but {@code round}; with
     * {@code --ratios COL=A,B}, each group against the group whose COL is A (then B), the other
     * --by values alike: the median of the ratios of the rounds both measured, paired by the
     * {@code round} column, with its 95% interval ("0.560 [0.500–0.600]"; from fewer than 6
     * rounds the interval is their range, which holds the median less often).
     */
    @Command(name = "medians", mixinStandardHelpOptions = true, description = "Medians over the rounds, per group, and ratios paired by round.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:printed", "1:the CSV cannot be read", "2:bad usage"})
    static final class Medians extends SummaryCommand {
        @Parameters(paramLabel = "CSV", description = "A row per run and round.")
        private Path csv;

        @Option(names = "--by", required = true, split = ",", paramLabel = "COL", description = "The columns that name a group.")
        private List<String> by;

        @Option(names = "--ratios", paramLabel = "COL=VALUE,...", description = "Ratios to the groups whose COL has these values.")
        private String ratios;

        @Override
        String summary() throws IOException {
            return medians(Csv.parse(read(csv), csv.toString()), by, ratios);
        }
    }

    static String medians(Csv csv, List<String> by, String ratios) {
        List<String> columns = new ArrayList<>(csv.header());
        columns.removeAll(by);
        columns.remove("round");
        String ratioColumn = null;
        List<String> references = List.of();
        if (ratios != null) {
            int eq = ratios.indexOf('=');
            ratioColumn = ratios.substring(0, eq);
            references = List.of(ratios.substring(eq + 1).split(","));
            if (!by.contains(ratioColumn)) throw new IllegalArgumentException("--ratios " + ratioColumn + ": not a --by column");
        }
        Map<List<String>, Map<String, String>> medians = new LinkedHashMap<>();
        for (Map<String, String> row : csv.rows()) {
            List<String> group = new ArrayList<>();
            for (String b : by) group.add(row.get(b));
            medians.computeIfAbsent(group, g -> new LinkedHashMap<>());
        }
        for (Map.Entry<List<String>, Map<String, String>> g : medians.entrySet()) {
            for (String c : columns) g.getValue().put(c, median(csv, by, g.getKey(), c));
        }
        StringBuilder sb = new StringBuilder(String.join(",", by));
        for (String c : columns) sb.append(',').append(c);
        for (String r : references) for (String c : columns) sb.append(',').append(c).append("_vs_").append(r);
        sb.append('\n');
        for (Map.Entry<List<String>, Map<String, String>> g : medians.entrySet()) {
            sb.append(String.join(",", g.getKey()));
            for (String c : columns) sb.append(',').append(g.getValue().get(c));
            for (String r : references) {
                List<String> ref = new ArrayList<>(g.getKey());
                ref.set(by.indexOf(ratioColumn), r);
                Map<String, String> reference = medians.get(ref);
                for (String c : columns) sb.append(',').append(reference == null ? "" : pairedRatio(csv, by, g.getKey(), ref, c));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The median of {@code group}'s column over {@code ref}'s, round by round, with its interval; empty without a paired round. */
    private static String pairedRatio(Csv csv, List<String> by, List<String> group, List<String> ref, String column) {
        Map<String, Double> mine = byRound(csv, by, group, column), theirs = byRound(csv, by, ref, column);
        List<Double> ratios = new ArrayList<>();
        for (Map.Entry<String, Double> e : mine.entrySet()) {
            Double other = theirs.get(e.getKey());
            if (other != null && other > 0) ratios.add(e.getValue() / other);
        }
        if (ratios.isEmpty()) return "";
        double[] v = new double[ratios.size()];
        for (int i = 0; i < v.length; i++) v[i] = ratios.get(i);
        Interval i = MedianInterval.medianOfRatios(v);
        return v.length == 1 ? fixed(i.estimate(), 3) : fixed(i.estimate(), 3) + " [" + fixed(i.low(), 3) + "–" + fixed(i.high(), 3) + "]";
    }

    /** A group's column by its {@code round} cell, empty cells left out. */
    private static Map<String, Double> byRound(Csv csv, List<String> by, List<String> group, String column) {
        Map<String, Double> v = new LinkedHashMap<>();
        for (Map<String, String> row : csv.rows()) {
            boolean in = true;
            for (int i = 0; i < by.size() && in; i++) in = group.get(i).equals(row.get(by.get(i)));
            String cell = row.get(column);
            if (in && cell != null && !cell.isEmpty()) v.put(row.get("round"), Csv.number(cell));
        }
        return v;
    }

    /**
     * The median of a column's cells in a group, empty cells left out: the middle cell as written
     * for an odd count, else the mean of the middle two, exact (2.00 and 4.00 make 3.00, 1.5 and 2.0 make 1.75).
     */
    private static String median(Csv csv, List<String> by, List<String> group, String column) {
        List<BigDecimal> cells = new ArrayList<>();
        for (Map<String, String> row : csv.rows()) {
            boolean in = true;
            for (int i = 0; i < by.size() && in; i++) in = group.get(i).equals(row.get(by.get(i)));
            String cell = row.get(column);
            if (in && cell != null && !cell.isEmpty()) cells.add(new BigDecimal(cell));
        }
        if (cells.isEmpty()) return "";
        cells.sort(null);
        int n = cells.size();
        if (n % 2 == 1) return cells.get(n / 2).toPlainString();
        return cells.get(n / 2 - 1).add(cells.get(n / 2)).divide(BigDecimal.valueOf(2)).toPlainString();
    }

    static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** {@code v} to {@code places} decimals, or empty where it is not a number: a CSV cell. */
    static String fixed(double v, int places) {
        return Double.isFinite(v) ? new BigDecimal(v).setScale(places, RoundingMode.HALF_EVEN).toPlainString() : "";
    }
}
