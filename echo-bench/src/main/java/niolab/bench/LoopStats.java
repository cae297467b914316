package niolab.bench;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * What one worker thread measured. Hot fields are written by that thread only; the coordinator
 * takes interval histograms from the recorders (wait-free for the writer) and reads the rest
 * after the thread has been joined. {@code errorCount} is the one field it reads live.
 */
final class LoopStats {
    /** µs from each request's intended start (= its actual start without --rate). */
    final SingleWriterRecorder corrected = new SingleWriterRecorder(3);
    /** µs from each request's actual start; only under --rate, else null. */
    final SingleWriterRecorder uncorrected;
    final ErrorCounts errors = new ErrorCounts();
    /** Errors so far, for the progress line and the interval series. */
    volatile long errorCount;

    /** The coordinator's spare interval histograms (owned by the sampling thread, not the loop). */
    Histogram correctedSpare;
    Histogram uncorrectedSpare;

    // cold: read after join
    /** Requests started more than {@link #LATE_NANOS} after their intended start. */
    long late;
    long maxLagNanos;
    long lastCompletionNanos;
    long cpuNanos;

    static final long LATE_NANOS = 1_000_000L;

    LoopStats(boolean rate) {
        this.uncorrected = rate ? new SingleWriterRecorder(3) : null;
    }

    void error(ErrorClass c, long n, String detail) {
        for (long i = 0; i < n; i++) errors.add(c, detail);
        errorCount = errorCount + n; // single writer
    }

    void lag(long lagNanos) {
        if (lagNanos > LATE_NANOS) late++;
        if (lagNanos > maxLagNanos) maxLagNanos = lagNanos;
    }
}
