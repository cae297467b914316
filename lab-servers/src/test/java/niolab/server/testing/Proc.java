package niolab.server.testing;

import niolab.common.CountersLine;
import niolab.common.ProcStat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** What /proc says about a server and its children (mp workers): descriptors held, CPU used. */
public final class Proc {
    private Proc() {
    }

    /** The server process and its descendants still alive (an mp master's workers). */
    public static List<Long> tree(ServerProcess p) {
        List<Long> pids = new ArrayList<>();
        pids.add(p.pid());
        p.process.toHandle().descendants().filter(ProcessHandle::isAlive).forEach(h -> pids.add(h.pid()));
        return pids;
    }

    /** The workers of an mp master (its children), or the server itself. */
    public static List<Long> servingProcesses(ServerProcess p) {
        List<Long> pids = new ArrayList<>();
        p.process.toHandle().children().filter(ProcessHandle::isAlive).forEach(h -> pids.add(h.pid()));
        if (pids.isEmpty()) pids.add(p.pid());
        return pids;
    }

    /** Open descriptors of one process (0 if it has gone). */
    public static long fds(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        } catch (NoSuchFileException gone) {
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static long fds(List<Long> pids) {
        long n = 0;
        for (long pid : pids) n += fds(pid);
        return n;
    }

    /** Waits (bounded) until the processes hold at most {@code limit} descriptors; returns the last count. */
    public static long awaitFdsAtMost(List<Long> pids, long limit, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        long n;
        // A close is usually a millisecond away (the herd scenarios wait for one per connection, a hundred times).
        while ((n = fds(pids)) > limit && System.nanoTime() < deadline) Thread.sleep(2);
        return n;
    }

    /** CPU time (user + system) used so far by the processes, in seconds; a process that has gone counts nothing. */
    public static double cpuSeconds(List<Long> pids) {
        long ticks = 0;
        for (long pid : pids) {
            ProcStat stat = ProcStat.read(pid);
            if (stat != null) ticks += stat.cpuTicks();
        }
        return (double) ticks / ProcStat.CLK_TCK;
    }

    /**
     * Voluntary context switches so far of the threads of {@code pid} named one of {@code names}
     * (or {@code name-N}): each is one time such a thread blocked, so for an event loop one
     * wakeup. The lab's loops run on the main thread ({@code java}) and {@code loop-2}, {@code loop-3}...
     */
    public static long voluntarySwitches(long pid, String... names) {
        long n = 0;
        for (long switches : voluntarySwitchesByThread(pid, names).values()) n += switches;
        return n;
    }

    /** {@link #voluntarySwitches}, thread by thread (by thread id): which of the loops woke. */
    public static Map<String, Long> voluntarySwitchesByThread(long pid, String... names) {
        Map<String, Long> byThread = new HashMap<>();
        for (long tid : ProcStat.threads(pid)) {
            String comm = ProcStat.threadName(pid, tid);
            if (comm == null) continue; // the thread ended while we looked
            boolean loop = false;
            for (String name : names) loop |= comm.equals(name) || comm.startsWith(name + "-");
            if (!loop) continue;
            long switches = ProcStat.status(pid, tid, "voluntary_ctxt_switches");
            if (switches >= 0) byThread.put(Long.toString(tid), switches);
        }
        return byThread;
    }

    /** Resident memory of one process in bytes, from /proc/PID/status (VmRSS). */
    public static long rssBytes(long pid) {
        long rss = ProcStat.rssBytes(pid);
        if (rss < 0) throw new IllegalStateException("no VmRSS for process " + pid);
        return rss;
    }

    /** The value of {@code name} in the last {@code counters:} line (the sum, for mp). */
    public static long counter(ServerProcess p, String name) {
        String line = CountersLine.last(p.output());
        Long v = line == null ? null : CountersLine.parse(line).get(name);
        if (v == null) throw new AssertionError("no counter " + name + " in:\n" + p.output());
        return v;
    }
}
