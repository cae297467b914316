package niolab.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import niolab.common.AtomicFile;
import niolab.common.results.ResultsJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code echo-bench merge FILE...}: the {@code --hlog} logs of several generators as one result.
 * Histograms are added interval by interval; percentiles are never averaged.
 *
 * <pre>
 *   echo-bench merge a.hlog b.hlog                  # a row per tag, a union row, each generator's rate
 *   echo-bench merge --json m.json --csv m.csv *.hlog
 * </pre>
 */
@Command(name = "merge", sortOptions = false,
        description = "Combine the --hlog interval logs of several generators: the seed's table with a row per tag and one "
                + "for their union (histograms added, never percentiles averaged), each generator's achieved rate, and a "
                + "warning when they started more than a second apart or one fell behind its --rate schedule.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the logs were merged", "1:a report could not be written",
                "2:bad flags, a file that is not an HdrHistogram interval log, or logs with no time range in common"})
final class MergeLogs implements Callable<Integer> {
    /** Generators that started further apart than this did not measure the same moments of the server. */
    static final long START_SPREAD_MILLIS = 1000;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Interval logs written by echo-bench --hlog (values in µs).")
    List<Path> files;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the rows, generators and warnings as JSON (echo-bench/JSON-SCHEMA.md).")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write a CSV row per tag and per union.")
    Path csv;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> warnings = new ArrayList<>();
        Map<String, TagSeries> tags;
        try {
            tags = TagSeries.read(files, warnings);
        } catch (TagSeries.BadLog e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        List<TagSeries> generators = generators(tags);
        long firstStart = Long.MAX_VALUE;
        long lastStart = Long.MIN_VALUE;
        long firstEnd = Long.MAX_VALUE;
        for (TagSeries g : generators) {
            firstStart = Math.min(firstStart, g.startMillis);
            lastStart = Math.max(lastStart, g.startMillis);
            firstEnd = Math.min(firstEnd, g.endMillis);
        }
        if (lastStart >= firstEnd) {
            err.println("error: the logs share no time range: " + ranges(generators));
            return 2;
        }
        if (lastStart - firstStart > START_SPREAD_MILLIS) {
            warnings.add(String.format(Locale.ROOT, "the generators started %.3f s apart (%s): the union mixes different "
                    + "moments of the run; start them with --start-at", (lastStart - firstStart) / 1000.0, ranges(generators)));
        }
        for (TagSeries g : generators) {
            if (g.late > 0) {
                warnings.add(String.format(Locale.ROOT, "%s fell behind its schedule: %d requests started more than 1 ms late "
                        + "(max lag %.1f ms); its corrected latencies include the delay", g.tag, g.late, g.maxLagMillis));
            }
        }
        MergeReport report = new MergeReport(files, tags, generators, firstEnd - lastStart, warnings);
        out.print(report.text());
        out.flush();
        try {
            if (json != null) AtomicFile.write(json, ResultsJson.compact(report.json()) + "\n");
            if (csv != null) AtomicFile.write(csv, report.csv());
        } catch (IOException e) {
            err.println("error: cannot write a report: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /** One per generator: every tag but the uncorrected twin of another. */
    private static List<TagSeries> generators(Map<String, TagSeries> tags) {
        List<TagSeries> g = new ArrayList<>();
        for (TagSeries s : tags.values()) {
            String base = s.tag.substring(0, s.tag.length() - (s.tag.endsWith(IntervalLog.UNCORRECTED) ? IntervalLog.UNCORRECTED.length() : 0));
            if (base.equals(s.tag) || !tags.containsKey(base)) g.add(s);
        }
        return g;
    }

    /** {@code gen-a 2026-...Z to 2026-...Z, gen-b ...}. */
    private static String ranges(List<TagSeries> generators) {
        List<String> r = new ArrayList<>();
        for (TagSeries g : generators) r.add(g.tag + " " + Instant.ofEpochMilli(g.startMillis) + " to " + Instant.ofEpochMilli(g.endMillis));
        return String.join(", ", r);
    }
}
