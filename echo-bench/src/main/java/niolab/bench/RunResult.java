package niolab.bench;

import org.HdrHistogram.Histogram;

/** One run: its latencies (µs, from before connect to the last echoed byte), wall time, errors. */
public final class RunResult {
    public final int run;
    /** Latency per successful request, in microseconds, 3 significant digits. */
    public final Histogram latencyUs = new Histogram(3);
    public final ErrorCounts errors = new ErrorCounts();
    public long elapsedNanos;

    public RunResult(int run) {
        this.run = run;
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
}
