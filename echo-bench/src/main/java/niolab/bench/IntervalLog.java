package niolab.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.common.AtomicFile;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * {@code --hlog FILE}: each interval's latency histogram in HdrHistogram's interval log format,
 * the one format that HistogramLogProcessor, HdrLogProcessing and HistogramLogAnalyzer read and
 * that {@code echo-bench merge} combines across generators. Values are microseconds.
 *
 * <pre>
 *   #[echo-bench -&gt; 10.0.0.1:9988: 50 connections (keep-alive) on 2 threads, rate 5000/s; values in microseconds]
 *   #[Histogram log format version 1.3]
 *   #[StartTime: 1767268800.000 (seconds since epoch), Thu Jan 01 12:00:00 UTC 2026]
 *   #[BaseTime: 1767268800.000 (seconds since epoch)]
 *   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
 *   Tag=gen-a,0.000,1.000,0.512,HISTFAAAA...               corrected (from each intended start)
 *   Tag=gen-a-uncorrected,0.000,1.000,0.498,HISTFAAAA...   only under --rate: from the actual send
 *   #[schedule-lag tag=gen-a run=1 target=5000.0/s late=3 max_lag_ms=1.250]   under --rate, after each run
 * </pre>
 *
 * <p>Timestamps are wall-clock, so that the logs of several hosts line up; they are derived from
 * {@code nanoTime} through one anchor taken when the measurement starts (after any
 * {@code --start-at} wait), so a clock step during a run moves no interval. Only the
 * coordinating thread writes, once per interval: the workers keep recording into their
 * recorders, allocation-free, as before.
 */
final class IntervalLog implements AutoCloseable {
    /** The uncorrected twin of tag NAME under --rate is NAME plus this. */
    static final String UNCORRECTED = "-uncorrected";
    /** Interval_Max in milliseconds, as HdrHistogram's tools print it. */
    private static final double MICROS_PER_MILLI = 1000.0;

    private final AtomicFile atomic;
    private final PrintStream file;
    private final HistogramLogWriter writer;
    private final Path path;
    private final String tag;
    // The wall clock to the nanosecond, read just after the monotonic one: a mapped time is never
    // earlier than the moment it stands for (a millisecond anchor floored it up to 1 ms early).
    private long anchorNanos;
    private long anchorEpochNanos;
    private long baseMillis = -1;

    /** Creates FILE at once, so that a bad path fails before any load is sent. */
    IntervalLog(Path path, String tag) throws IOException {
        this.path = path;
        this.tag = tag;
        // PATH.partial until the log is closed: a killed run leaves the old PATH, and its finished intervals in PATH.partial
        this.atomic = AtomicFile.create(path);
        this.file = new PrintStream(new BufferedOutputStream(atomic.out()), false, StandardCharsets.US_ASCII);
        this.writer = new HistogramLogWriter(file);
    }

    /** The header, once, when the first measured run starts: its StartTime is the measurement's start. */
    void begin(long startNanos, String description) {
        if (baseMillis >= 0) return;
        anchorNanos = System.nanoTime();
        anchorEpochNanos = epochNanosNow();
        baseMillis = epochMillis(startNanos);
        writer.outputComment("[echo-bench -> " + description + "; values in microseconds]");
        writer.outputLogFormatVersion();
        writer.outputStartTime(baseMillis);
        writer.setBaseTime(baseMillis);
        writer.outputBaseTime(baseMillis);
        writer.outputLegend();
    }

    /** One interval: the corrected histogram, and under --rate the uncorrected one. */
    void interval(long startNanos, long endNanos, Histogram corrected, Histogram uncorrected) {
        double start = (epochMillis(startNanos) - baseMillis) / 1000.0;
        double end = (epochMillis(endNanos) - baseMillis) / 1000.0;
        corrected.setTag(tag);
        writer.outputIntervalHistogram(start, end, corrected, MICROS_PER_MILLI);
        if (uncorrected != null) {
            uncorrected.setTag(tag + UNCORRECTED);
            writer.outputIntervalHistogram(start, end, uncorrected, MICROS_PER_MILLI);
        }
        file.flush(); // a run that is killed still leaves every finished interval behind
    }

    /** After each --rate run: how far the client fell behind its schedule (the corrected latencies include it). */
    void schedule(int run, double target, long late, long maxLagNanos) {
        writer.outputComment(new ScheduleLag(tag, run, target, late, maxLagNanos / 1e6).toString());
    }

    private long epochMillis(long nanos) {
        return Math.floorDiv(anchorEpochNanos + (nanos - anchorNanos), 1_000_000L);
    }

    private static long epochNanosNow() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    public void close() throws IOException {
        file.close();
        if (file.checkError()) {
            atomic.close();
            throw new IOException("cannot write " + path);
        }
        atomic.commit();
    }

    /** The comment a --rate run leaves after each run, and what {@code echo-bench merge} reads back. */
    record ScheduleLag(String tag, int run, double target, long late, double maxLagMillis) {
        private static final Pattern LINE = Pattern.compile(
                "#\\[schedule-lag tag=(\\S+) run=(\\d+) target=([0-9.]+)/s late=(\\d+) max_lag_ms=([0-9.]+)]");

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "[schedule-lag tag=%s run=%d target=%.1f/s late=%d max_lag_ms=%.3f]",
                    tag, run, target, late, maxLagMillis);
        }

        /** The lag a log line records, or null when the line is something else. */
        static ScheduleLag parse(String line) {
            Matcher m = LINE.matcher(line.trim());
            if (!m.matches()) return null;
            return new ScheduleLag(m.group(1), Integer.parseInt(m.group(2)), Double.parseDouble(m.group(3)),
                    Long.parseLong(m.group(4)), Double.parseDouble(m.group(5)));
        }
    }
}
