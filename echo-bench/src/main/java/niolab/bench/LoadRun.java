package niolab.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Runs one measured run: starts the workers (one {@link SerialClient}, or {@code --threads}
 * {@link LoadLoop}s), samples their recorders every 250 ms for the progress line and at each
 * {@code --interval} boundary for the series and the {@code --hlog} log, joins them, and folds
 * everything into a {@link RunResult}.
 *
 * <pre>
 *   RunResult r = new LoadRun(spec, 0, -1, null).run(1, 10_000, 0);   // 10k requests, no series
 * </pre>
 */
public final class LoadRun {
    private static final long SAMPLE_NANOS = 250_000_000L;
    private static final long PROGRESS_AFTER_NANOS = 2_000_000_000L;

    private final LoadSpec spec;
    private final long intervalNanos;
    private final long serverPid;
    /** Where the one-line progress goes (a terminal), or null for none. */
    private final PrintStream progress;
    /** Where each interval's histograms go ({@code --hlog}), or null. */
    private final IntervalLog log;

    public LoadRun(LoadSpec spec, long intervalNanos, long serverPid, PrintStream progress) {
        this(spec, intervalNanos, serverPid, progress, null);
    }

    LoadRun(LoadSpec spec, long intervalNanos, long serverPid, PrintStream progress, IntervalLog log) {
        this.spec = spec;
        this.intervalNanos = intervalNanos;
        this.serverPid = serverPid;
        this.progress = progress;
        this.log = log;
    }

    /** {@code requests} requests, or for {@code durationNanos} when that is positive. */
    public RunResult run(int runNo, long requests, long durationNanos) {
        boolean rated = spec.rate > 0;
        RunResult r = new RunResult(runNo, rated);
        long cpu0 = Proc.selfCpuNanos();
        long srv0 = serverPid > 0 ? Proc.cpuNanos(serverPid) : -1;
        long start = System.nanoTime();
        long end = durationNanos > 0 ? start + durationNanos : Long.MAX_VALUE;
        long budget = durationNanos > 0 ? Long.MAX_VALUE : requests;

        List<LoopStats> stats = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        if (spec.serial()) {
            SerialClient c = new SerialClient(spec.target, spec.codec, (int) Math.max(1, spec.timeoutNanos / 1_000_000L), budget, end,
                    spec.linger0, spec.serialKind);
            stats.add(c.stats);
            threads.add(new Thread(c, "echo-bench-serial"));
        } else {
            int assigned = 0;
            for (int i = 0; i < spec.threads; i++) {
                int share = (spec.connections - i + spec.threads - 1) / spec.threads;
                // split N in proportion to connections, exactly: floor(N*a/C) differences sum to N
                long b = budget == Long.MAX_VALUE ? budget
                        : mulDiv(budget, assigned + share, spec.connections) - mulDiv(budget, assigned, spec.connections);
                assigned += share;
                LoadLoop loop = new LoadLoop(spec, i, start, b, end);
                stats.add(loop.stats);
                threads.add(new Thread(loop, "echo-bench-loop-" + i));
            }
        }
        for (Thread t : threads) t.start();
        if (log != null) log.begin(start, spec.target.getHostString() + ":" + spec.target.getPort() + ": " + spec.describe());

        Sampler s = new Sampler(stats, r, start, log);
        long nextSample = start + SAMPLE_NANOS;
        long nextInterval = intervalNanos > 0 ? start + intervalNanos : Long.MAX_VALUE;
        boolean shown = false;
        for (Thread t : threads) {
            while (t.isAlive()) {
                // woken at each interval's end, so that logged intervals have the length asked for
                join(t, Math.min(nextSample, nextInterval) - System.nanoTime());
                long now = System.nanoTime();
                s.sample();
                if (now >= nextInterval) {
                    s.closeInterval(now);
                    while (nextInterval <= now) nextInterval += intervalNanos;
                }
                if (now >= nextSample) nextSample = now + SAMPLE_NANOS;
                if (progress != null && now - start > PROGRESS_AFTER_NANOS) {
                    shown = true;
                    progress.printf(Locale.ROOT, "\r%s", s.progressLine(now));
                    progress.flush();
                }
            }
        }
        long joined = System.nanoTime();
        s.sample();
        if (intervalNanos > 0 && (s.interval.getTotalCount() > 0 || s.errorsNow() > s.errorsAtInterval)) {
            s.closeInterval(joined);
        } else {
            s.fold();
        }
        if (shown) {
            progress.print("\r" + " ".repeat(79) + "\r");
            progress.flush();
        }

        long last = 0;
        long threadCpu = 0;
        long busiest = -1;
        for (LoopStats ls : stats) {
            last = Math.max(last, ls.lastCompletionNanos);
            threadCpu += ls.cpuNanos;
            busiest = Math.max(busiest, ls.cpuNanos);
            r.errors.addAll(ls.errors);
            r.late += ls.late;
            r.maxLagNanos = Math.max(r.maxLagNanos, ls.maxLagNanos);
        }
        r.elapsedNanos = (r.ok() > 0 ? last : joined) - start;
        r.clientThreadCpuNanos = threadCpu;
        r.clientBusiestThreadCpuNanos = busiest;
        long cpu1 = Proc.selfCpuNanos();
        r.clientProcessCpuNanos = cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0;
        if (srv0 >= 0) {
            long srv1 = Proc.cpuNanos(serverPid);
            r.serverCpuNanos = srv1 < 0 ? -1 : srv1 - srv0;
        }
        r.timeWait = Proc.timeWait();
        if (log != null && rated) log.schedule(runNo, spec.rate, r.late, r.maxLagNanos);
        return r;
    }

    private static long mulDiv(long a, long b, long c) {
        return java.math.BigInteger.valueOf(a).multiply(java.math.BigInteger.valueOf(b))
                .divide(java.math.BigInteger.valueOf(c)).longValueExact();
    }

    private static void join(Thread t, long nanos) {
        try {
            t.join(Math.max(1, (nanos + 999_999L) / 1_000_000L)); // join(0) would wait forever
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Moves what the workers recorded into the current interval, and each closed interval into the run's totals. */
    private static final class Sampler {
        final List<LoopStats> stats;
        final RunResult r;
        final long start;
        final IntervalLog log;
        final Histogram interval = new Histogram(3);
        /** Under --rate, the same interval measured from the actual sends; else null. */
        final Histogram uncorrectedInterval;
        long intervalStart;
        long errorsAtInterval;
        long lastProgressAt;
        long lastProgressCount;

        Sampler(List<LoopStats> stats, RunResult r, long start, IntervalLog log) {
            this.stats = stats;
            this.r = r;
            this.start = start;
            this.log = log;
            this.uncorrectedInterval = r.uncorrectedUs == null ? null : new Histogram(3);
            this.intervalStart = start;
            this.lastProgressAt = start;
        }

        void sample() {
            for (LoopStats ls : stats) {
                // a recycled histogram must come from the same recorder: keep one per recorder
                ls.correctedSpare = ls.corrected.getIntervalHistogram(ls.correctedSpare);
                interval.add(ls.correctedSpare);
                if (ls.uncorrected != null) {
                    ls.uncorrectedSpare = ls.uncorrected.getIntervalHistogram(ls.uncorrectedSpare);
                    uncorrectedInterval.add(ls.uncorrectedSpare);
                }
            }
        }

        long errorsNow() {
            long e = 0;
            for (LoopStats ls : stats) e += ls.errorCount;
            return e;
        }

        long done() {
            return r.latencyUs.getTotalCount() + interval.getTotalCount();
        }

        void closeInterval(long now) {
            long errs = errorsNow();
            long p99 = interval.getTotalCount() == 0 ? 0 : interval.getValueAtPercentile(99);
            r.intervals.add(new RunResult.Interval((now - start) / 1e9, (now - intervalStart) / 1e9,
                    interval.getTotalCount(), p99, errs - errorsAtInterval));
            if (log != null) log.interval(intervalStart, now, interval, uncorrectedInterval);
            fold();
            intervalStart = now;
            errorsAtInterval = errs;
        }

        /** Adds the current interval to the run's totals and starts the next one empty. */
        void fold() {
            r.latencyUs.add(interval);
            interval.reset();
            if (uncorrectedInterval != null) {
                r.uncorrectedUs.add(uncorrectedInterval);
                uncorrectedInterval.reset();
            }
        }

        String progressLine(long now) {
            long done = done();
            double rate = now > lastProgressAt ? (done - lastProgressCount) * 1e9 / (now - lastProgressAt) : 0;
            lastProgressAt = now;
            lastProgressCount = done;
            return String.format(Locale.ROOT, "%6.1f s  %,12d requests  %,10.0f/s  %,d errors   ",
                    (now - start) / 1e9, done, rate, errorsNow());
        }
    }
}
