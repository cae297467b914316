package niolab.bench;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * One tag of the interval logs given to {@code echo-bench merge}: its interval histograms added
 * up (histograms merge exactly; percentiles could not be averaged), the wall-clock time they
 * cover, and the schedule lag its {@code --rate} runs recorded.
 *
 * <pre>
 *   Map&lt;String, TagSeries&gt; tags = TagSeries.read(List.of(a, b), warnings);   // by tag, in the order met
 * </pre>
 */
final class TagSeries {
    final String tag;
    /** The log it was first met in; null for a union. */
    final String file;
    final Histogram latencyUs = new Histogram(3);
    long startMillis = Long.MAX_VALUE;
    long endMillis = Long.MIN_VALUE;
    /** Requests/s a --rate run scheduled; 0 when the log records no schedule (a closed loop). */
    double targetRate;
    /** Requests started more than 1 ms late, over all runs, and the largest lag. */
    long late;
    double maxLagMillis;

    TagSeries(String tag, String file) {
        this.tag = tag;
        this.file = file;
    }

    void add(Histogram interval, long startMillis, long endMillis) {
        latencyUs.add(interval);
        this.startMillis = Math.min(this.startMillis, startMillis);
        this.endMillis = Math.max(this.endMillis, endMillis);
    }

    void add(TagSeries other) {
        add(other.latencyUs, other.startMillis, other.endMillis);
    }

    /** As a run, for the original write-up's table: successful requests over the time the series covers. */
    RunResult asRun() {
        RunResult r = new RunResult(0);
        r.latencyUs.add(latencyUs);
        r.elapsedNanos = (endMillis - startMillis) * 1_000_000L;
        return r;
    }

    /** A log that is not one, or cannot be read: what merge reports in one line before exiting 2. */
    static final class BadLog extends Exception {
        BadLog(String message) {
            super(message);
        }
    }

    /** Every tag of every file, in the order first met; a tag in several files is counted as one generator, with a warning. */
    static Map<String, TagSeries> read(List<Path> files, List<String> warnings) throws BadLog {
        Map<String, TagSeries> tags = new LinkedHashMap<>();
        for (Path f : files) read(f, tags, warnings);
        return tags;
    }

    private static void read(Path file, Map<String, TagSeries> tags, List<String> warnings) throws BadLog {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1); // any bytes decode: a binary file is refused below, not here
        } catch (NoSuchFileException e) {
            throw new BadLog("cannot read " + file + ": no such file");
        } catch (IOException e) {
            throw new BadLog("cannot read " + file + ": " + e.getMessage());
        }
        String name = file.toString();
        // HistogramLogReader skips a line it cannot parse: count the lines it should have read
        long intervalLines = 0;
        List<IntervalLog.ScheduleLag> lags = new ArrayList<>();
        for (String line : lines) {
            IntervalLog.ScheduleLag lag;
            try {
                lag = IntervalLog.ScheduleLag.parse(line);
            } catch (NumberFormatException e) { // a run or count past what its type holds: not a line echo-bench wrote
                throw new BadLog(name + " has a schedule-lag line out of range: " + line.strip());
            }
            if (lag != null) lags.add(lag);
            if (!line.isBlank() && !line.startsWith("#") && !line.startsWith("\"StartTimestamp\"")) intervalLines++;
        }
        long read = 0;
        Set<String> here = new HashSet<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            while (reader.hasNext()) {
                EncodableHistogram h = reader.nextIntervalHistogram();
                if (h == null) continue;
                if (!(h instanceof Histogram)) throw new BadLog(name + " holds floating-point histograms, not latencies in microseconds");
                read++;
                String tag = h.getTag() != null ? h.getTag() : file.getFileName().toString();
                TagSeries s = tags.computeIfAbsent(tag, t -> new TagSeries(t, name));
                if (here.add(tag) && !s.file.equals(name) && !tag.endsWith(IntervalLog.UNCORRECTED)) {
                    warnings.add("tag " + tag + " is in both " + s.file + " and " + name
                            + ": counted as one generator (give each generator its own --tag)");
                }
                s.add((Histogram) h, h.getStartTimeStamp(), h.getEndTimeStamp());
            }
        } catch (FileNotFoundException e) {
            throw new BadLog("cannot read " + file + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new BadLog(name + " is not an HdrHistogram interval log (" + e + ")");
        }
        if (read == 0 || read != intervalLines) {
            throw new BadLog(name + " is not an HdrHistogram interval log (" + read + " of " + intervalLines + " interval lines readable)");
        }
        for (IntervalLog.ScheduleLag lag : lags) {
            TagSeries s = tags.get(lag.tag());
            if (s == null) continue;
            s.targetRate = lag.target();
            s.late += lag.late();
            s.maxLagMillis = Math.max(s.maxLagMillis, lag.maxLagMillis());
        }
    }
}
