package niolab.bench;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One run: its latencies (µs), wall time, errors, CPU and, on request, its interval series.
 * Latency is measured from before connect (short connections) or from the request's start
 * (keep-alive) to the last byte of its response; under {@code --rate} the start is the
 * request's intended start, and {@link #uncorrectedUs} keeps the latency from the actual send.
 */
public final class RunResult {
    public final int run;
    /** Latency per successful request, in microseconds, 3 significant digits (corrected under --rate). */
    public final Histogram latencyUs = new Histogram(3);
    /** Latency from the actual send; only under --rate, else null. */
    public final Histogram uncorrectedUs;
    public final ErrorCounts errors = new ErrorCounts();
    public final List<Interval> intervals = new ArrayList<>();
    public long elapsedNanos;
    /** CPU of the client's worker threads (thread CPU clocks), ns; -1 unknown. */
    public long clientThreadCpuNanos = -1;
    /** CPU of the busiest worker thread (its thread CPU clock), ns; -1 unknown. */
    public long clientBusiestThreadCpuNanos = -1;
    /** CPU of the whole client JVM (incl. JIT and GC), ns; -1 unknown. */
    public long clientProcessCpuNanos = -1;
    /** CPU of --server-pid and its descendants, ns at 10 ms resolution; -1 when not asked or unreadable. */
    public long serverCpuNanos = -1;
    /** --rate: requests started more than 1 ms after their intended start, and the largest lag. */
    public long late;
    public long maxLagNanos;
    /** Sockets in TIME-WAIT on this host when the run ended; -1 unknown. */
    public long timeWait = -1;

    /** Throughput and tail of one {@code --interval}. */
    public static final class Interval {
        /** End of the interval, seconds from the start of the run. */
        public final double endSeconds;
        public final double seconds;
        public final long requests;
        public final long p99Us;
        public final long errors;

        public Interval(double endSeconds, double seconds, long requests, long p99Us, long errors) {
            this.endSeconds = endSeconds;
            this.seconds = seconds;
            this.requests = requests;
            this.p99Us = p99Us;
            this.errors = errors;
        }

        public double qps() {
            return seconds <= 0 ? 0 : requests / seconds;
        }
    }

    public RunResult(int run) {
        this(run, false);
    }

    public RunResult(int run, boolean rated) {
        this.run = run;
        this.uncorrectedUs = rated ? new Histogram(3) : null;
    }

    /** Successful requests. */
    public long ok() {
        return latencyUs.getTotalCount();
    }

    public long attempted() {
        return ok() + errors.total();
    }

    public double elapsedSeconds() {
        return elapsedNanos / 1e9;
    }

    /** Successful requests per second of wall time. */
    public double qps() {
        return elapsedNanos == 0 ? 0 : ok() / elapsedSeconds();
    }

    public long percentile(double p) {
        return ok() == 0 ? 0 : latencyUs.getValueAtPercentile(p);
    }

    public long min() {
        return ok() == 0 ? 0 : latencyUs.getMinValue();
    }

    public long max() {
        return ok() == 0 ? 0 : latencyUs.getMaxValue();
    }

    /** Client JVM CPU per successful request, µs; NaN unknown. */
    public double clientCpuUsPerRequest() {
        return perRequest(clientProcessCpuNanos);
    }

    /** Client worker-thread CPU per successful request, µs; NaN unknown. */
    public double clientThreadCpuUsPerRequest() {
        return perRequest(clientThreadCpuNanos);
    }

    /** Server CPU per successful request, µs; NaN unknown. */
    public double serverCpuUsPerRequest() {
        return perRequest(serverCpuNanos);
    }

    private double perRequest(long nanos) {
        return nanos < 0 || ok() == 0 ? Double.NaN : nanos / 1000.0 / ok();
    }
}
