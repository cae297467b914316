package niolab.bench;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import niolab.common.ProcStat;

/**
 * Reads the rulers around one slice ({@link Rulers.Reading}): {@link #start} before the load,
 * one of the {@code stop} methods after it. The server's CPU is the sum over its process tree's
 * threads of the scheduler's nanosecond clock ({@code /proc/PID/task/TID/schedstat}), thread by
 * thread, so that a JIT thread that ends between the readings does not take its whole life's CPU
 * out of the difference (where the kernel keeps no schedstat, the tree's 10 ms ticks stand in, as
 * they did before). The interference is each measured core's busy ticks ({@code /proc/stat})
 * less what the tracked processes ran: 10 ms ticks against nanoseconds, so it is known to about
 * two ticks per core, a percent or two of a one-second slice.
 *
 * <pre>
 *   CpuMeter m = CpuMeter.start(target.pid());
 *   ...one slice of load...
 *   Rulers.Reading r = m.stopEngine(threads, busiestThreadNanos);
 * </pre>
 */
final class CpuMeter {
    private static final long SELF = ProcessHandle.current().pid();

    private final long serverPid;
    private final long startNanos;
    /** Server thread id to its ns on CPU at the start; null without a server pid. */
    private final Map<Long, Long> serverTasks;
    private final long serverReapedTicks;
    /** The server tree's ticks at the start where the kernel keeps no schedstat (-1 otherwise): the 10 ms fallback. */
    private final long serverTicks;
    private final long selfNanos;
    private final long selfReapedTicks;
    private final long[] busyTicks;

    private CpuMeter(long serverPid) {
        this.serverPid = serverPid;
        this.serverTasks = serverPid > 0 ? tasks(ProcStat.treeTaskNanos(serverPid)) : null;
        this.serverReapedTicks = serverPid > 0 ? ProcStat.treeReapedTicks(serverPid) : 0;
        this.serverTicks = serverTasks != null && serverTasks.isEmpty() ? ProcStat.treeCpuTicks(serverPid) : -1;
        this.selfNanos = Proc.selfCpuNanos();
        ProcStat self = ProcStat.self();
        this.selfReapedTicks = self == null ? -1 : self.reapedChildrenTicks();
        this.busyTicks = ProcStat.cpuBusyTicks();
        this.startNanos = System.nanoTime();
    }

    /** Reads the start of a slice against the server {@code serverPid} (0 or less: a server without a pid). */
    static CpuMeter start(long serverPid) {
        return new CpuMeter(serverPid);
    }

    /**
     * The end of a slice driven by this JVM on {@code loadThreads} threads, the busiest of which
     * ran {@code busiestThreadNanos} (-1 unknown): the client is this process, JIT and GC included.
     */
    Rulers.Reading stopEngine(int loadThreads, long busiestThreadNanos) {
        End end = new End();
        long client = selfNanos < 0 || end.self < 0 ? -1 : end.self - selfNanos;
        return end.reading(client, 0, loadThreads, busiestThreadNanos);
    }

    /**
     * The end of a slice driven by a child process on {@code loadThreads} threads (wrk), ended and
     * waited for: its CPU is what this JVM's reaped children gained (at tick resolution: the
     * kernel keeps an ended process's time only there), and this JVM's own CPU is tracked too.
     */
    Rulers.Reading stopChild(int loadThreads) {
        End end = new End();
        ProcStat now = ProcStat.self();
        long client = now == null || selfReapedTicks < 0 ? -1 : ProcStat.nanos(now.reapedChildrenTicks() - selfReapedTicks);
        long own = selfNanos < 0 || end.self < 0 ? 0 : end.self - selfNanos;
        return end.reading(client, own, loadThreads, -1);
    }

    /**
     * The end's counters, read in the reverse order of the start's: the clock and the cores' ticks
     * innermost, so that the wall time is the window the ticks cover, and the tracked processes'
     * clocks outermost (their window is the larger: what others ran is never overstated). Under
     * load, reading a JVM's threads from /proc takes a while.
     */
    private final class End {
        final long wall = System.nanoTime() - startNanos;
        final long[] busy = ProcStat.cpuBusyTicks();
        final long self = Proc.selfCpuNanos();
        final List<ProcStat.TaskTime> server = serverTasks == null ? null : ProcStat.treeTaskNanos(serverPid);
        final long serverReaped = serverTasks == null ? 0 : ProcStat.treeReapedTicks(serverPid);
        final long serverTicksNow = serverTicks < 0 ? -1 : ProcStat.treeCpuTicks(serverPid);

        Rulers.Reading reading(long clientNs, long otherTrackedNs, int loadThreads, long busiestClientThreadNanos) {
            return stop(this, clientNs, otherTrackedNs, loadThreads, busiestClientThreadNanos);
        }
    }

    private Rulers.Reading stop(End end, long clientNs, long otherTrackedNs, int loadThreads, long busiestClientThreadNanos) {
        long wall = end.wall;
        double seconds = wall / 1e9;
        long serverNs = -1;
        long busiest = -1;
        BitSet serverCpus = null;
        if (end.server != null) {
            List<ProcStat.TaskTime> now = end.server;
            if (!now.isEmpty()) {
                serverNs = ProcStat.nanos(end.serverReaped - serverReapedTicks);
                serverCpus = new BitSet();
                for (ProcStat.TaskTime t : now) {
                    long before = serverTasks.getOrDefault(t.tid(), 0L);
                    // a thread id reused by a new thread starts from zero
                    long ran = t.nanos() >= before ? t.nanos() - before : t.nanos();
                    serverNs += ran;
                    busiest = Math.max(busiest, ran);
                    if (ran > 0) {
                        BitSet allowed = ProcStat.cpusAllowed(t.pid(), t.tid());
                        if (allowed != null) serverCpus.or(allowed);
                    }
                }
                serverNs = Math.max(0, serverNs);
            } else if (serverTicks >= 0 && end.serverTicksNow >= 0) {
                serverNs = ProcStat.nanos(end.serverTicksNow - serverTicks);
            }
        }
        BitSet clientCpus = ProcStat.cpusAllowed(SELF, SELF);
        double clientCores = clientCpus == null ? Double.NaN : Math.min(loadThreads, clientCpus.cardinality());
        double serverCores = serverCpus == null || serverCpus.isEmpty() ? Double.NaN : serverCpus.cardinality();
        BitSet cores = new BitSet();
        if (clientCpus != null) cores.or(clientCpus);
        if (serverCpus != null) cores.or(serverCpus);
        double interference = interference(busyTicks, end.busy, cores, wall,
                Math.max(0, serverNs) + Math.max(0, clientNs) + otherTrackedNs);
        return new Rulers.Reading(seconds, serverNs, clientNs, serverCores, clientCores, share(busiest, wall), share(busiestClientThreadNanos, wall),
                cores.isEmpty() ? null : cpuList(cores), interference, Double.NaN);
    }

    /**
     * The share of the {@code cores}' capacity over {@code wallNanos} that was busy and not the
     * tracked processes' {@code trackedNs}; NaN when a reading is missing. Below zero (the ticks
     * sample, the clocks do not) it is 0.
     */
    static double interference(long[] before, long[] after, BitSet cores, long wallNanos, long trackedNs) {
        if (before == null || after == null || cores.isEmpty() || wallNanos <= 0) return Double.NaN;
        long busy = 0;
        for (int c = cores.nextSetBit(0); c >= 0; c = cores.nextSetBit(c + 1)) {
            if (c >= before.length || c >= after.length || before[c] < 0 || after[c] < 0) return Double.NaN;
            busy += after[c] - before[c];
        }
        double other = ProcStat.nanos(busy) - (double) trackedNs;
        return Math.max(0, other) / ((double) wallNanos * cores.cardinality());
    }

    /** A set of CPUs as the kernel writes it: {@code 0-3,6}. */
    static String cpuList(BitSet cpus) {
        StringBuilder sb = new StringBuilder();
        for (int from = cpus.nextSetBit(0); from >= 0; ) {
            int to = cpus.nextClearBit(from) - 1;
            if (sb.length() > 0) sb.append(',');
            sb.append(from);
            if (to > from) sb.append('-').append(to);
            from = cpus.nextSetBit(to + 1);
        }
        return sb.toString();
    }

    private static double share(long nanos, long wall) {
        return nanos < 0 || wall <= 0 ? Double.NaN : (double) nanos / wall;
    }

    private static Map<Long, Long> tasks(List<ProcStat.TaskTime> times) {
        Map<Long, Long> m = new HashMap<>();
        for (ProcStat.TaskTime t : times) m.put(t.tid(), t.nanos());
        return m;
    }
}
