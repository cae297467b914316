package niolab.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one reader of {@code /proc/PID/stat} (proc(5)) and of what a process's tree and status
 * files add to it: CPU ticks of a process and of its descendants, resident memory, context
 * switches. echo-bench (a server's CPU per request), the tests' CPU log (test-kit) and the
 * servers' tests read processes through it.
 *
 * <p>The command name (field 2) may hold spaces and parentheses, so the fields are counted from
 * the last ')'. CPU is in clock ticks of {@link #CLK_TCK} per second. A process that is gone
 * reads as null (or -1): processes end while they are looked at, and that is not an error.
 *
 * <pre>
 *   long t0 = ProcStat.treeCpuTicks(pid);      // the server, its threads and its descendants
 *   ...
 *   long cpuNanos = ProcStat.nanos(ProcStat.treeCpuTicks(pid) - t0);
 * </pre>
 */
public record ProcStat(long pid, String comm, char state, long ppid, long utime, long stime, long cutime, long cstime, long threads,
                       long rssPages) {
    /**
     * USER_HZ, the unit of the time fields. The kernel fixes it at 100 on every mainstream
     * architecture whatever CONFIG_HZ is ({@code getconf CLK_TCK} prints it): 10 ms ticks, so a
     * CPU figure needs a run of a few seconds to mean something.
     */
    public static final long CLK_TCK = 100;

    /** The fields of one stat line; an {@link IllegalArgumentException} names what is malformed. */
    public static ProcStat parse(String line) {
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        if (open <= 0 || close < open) throw new IllegalArgumentException("not a /proc/PID/stat line (no '(comm)'): " + line);
        String[] f = line.substring(close + 1).trim().split("\\s+");
        // f[0] is field 3 (state); field k of proc(5) is f[k - 3]
        if (f.length < 22) throw new IllegalArgumentException("a /proc/PID/stat line with " + (f.length + 2) + " fields: " + line);
        try {
            return new ProcStat(Long.parseLong(line.substring(0, open).trim()), line.substring(open + 1, close), f[0].charAt(0),
                    Long.parseLong(f[1]), Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14]),
                    Long.parseLong(f[17]), Long.parseLong(f[21]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a /proc/PID/stat line with a field that is not a number: " + line, e);
        }
    }

    /** The process {@code pid}, or null when it is gone (or /proc cannot be read). */
    public static ProcStat read(long pid) {
        return readFile(Path.of("/proc", Long.toString(pid), "stat"));
    }

    /** This JVM. */
    public static ProcStat self() {
        return readFile(Path.of("/proc/self/stat"));
    }

    private static ProcStat readFile(Path stat) {
        try {
            return parse(new String(Files.readAllBytes(stat), StandardCharsets.US_ASCII));
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    /** utime + stime: what the process's threads ran, in ticks. */
    public long cpuTicks() {
        return utime + stime;
    }

    /** cutime + cstime: what its children that have ended and been waited for ran, in ticks. */
    public long reapedChildrenTicks() {
        return cutime + cstime;
    }

    /** Ticks in nanoseconds. */
    public static long nanos(long ticks) {
        return ticks * (1_000_000_000L / CLK_TCK);
    }

    /**
     * CPU ticks of {@code pid} and every live descendant, each with its reaped children's, so that
     * a child that ends between two readings moves from one term to another instead of vanishing
     * (a {@code sh -c} or {@code taskset} wrapper, an mp master's workers). -1 when {@code pid} is gone.
     */
    public static long treeCpuTicks(long pid) {
        ProcStat root = read(pid);
        if (root == null) return -1;
        long ticks = root.cpuTicks() + root.reapedChildrenTicks();
        for (long d : descendants(pid)) {
            ProcStat s = read(d);
            if (s != null) ticks += s.cpuTicks() + s.reapedChildrenTicks();
        }
        return ticks;
    }

    /**
     * One thread of a process tree and its time on CPU in nanoseconds: the first field of
     * {@code /proc/PID/task/TID/schedstat}, the scheduler's own clock (sum_exec_runtime), not ticks.
     */
    public record TaskTime(long pid, long tid, long nanos) {}

    /**
     * Every live thread of {@code pid} and of its live descendants with its nanoseconds on CPU;
     * empty when {@code pid} is gone or the kernel keeps no schedstat. A thread that ends between
     * two readings takes the time it ran since the first with it: for a server's fixed threads
     * that is nothing, and {@link #treeReapedTicks} keeps what ended processes ran.
     */
    public static List<TaskTime> treeTaskNanos(long pid) {
        List<TaskTime> times = new ArrayList<>();
        List<Long> tree = new ArrayList<>();
        tree.add(pid);
        tree.addAll(descendants(pid));
        for (long p : tree) {
            for (long tid : threads(p)) {
                long ns = schedstatNanos(p, tid);
                if (ns >= 0) times.add(new TaskTime(p, tid, ns));
            }
        }
        return times;
    }

    /** The first field of {@code /proc/PID/task/TID/schedstat}: ns the thread ran; -1 when it is gone. */
    public static long schedstatNanos(long pid, long tid) {
        try {
            String line = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "schedstat")),
                    StandardCharsets.US_ASCII).trim();
            int space = line.indexOf(' ');
            return Long.parseLong(space < 0 ? line : line.substring(0, space));
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }

    /** What the ended and reaped children of {@code pid} and of its live descendants ran, in ticks; 0 when it is gone. */
    public static long treeReapedTicks(long pid) {
        long ticks = 0;
        List<Long> tree = new ArrayList<>();
        tree.add(pid);
        tree.addAll(descendants(pid));
        for (long p : tree) {
            ProcStat s = read(p);
            if (s != null) ticks += s.reapedChildrenTicks();
        }
        return ticks;
    }

    /**
     * The CPUs thread {@code tid} of {@code pid} may run on ({@code Cpus_allowed_list} of its status,
     * what sched_getaffinity(2) returns), or null when it is gone.
     */
    public static java.util.BitSet cpusAllowed(long pid, long tid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "status"))) {
                if (line.startsWith("Cpus_allowed_list:")) return cpuList(line.substring("Cpus_allowed_list:".length()));
            }
        } catch (IOException | RuntimeException gone) {
            return null;
        }
        return null;
    }

    /** A kernel CPU list such as {@code 0-3,8,10-11} as a set; an {@link IllegalArgumentException} when malformed. */
    public static java.util.BitSet cpuList(String list) {
        java.util.BitSet cpus = new java.util.BitSet();
        for (String part : list.trim().split(",")) {
            if (part.isEmpty()) continue;
            int dash = part.indexOf('-');
            try {
                int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
                if (from < 0 || to < from || to > 65535) throw new IllegalArgumentException("not a CPU list: " + list);
                cpus.set(from, to + 1);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a CPU list: " + list, e);
            }
        }
        return cpus;
    }

    /**
     * Per CPU, the ticks it ran tasks ({@code user + nice + system + steal} of its {@code cpuN} line
     * in {@code /proc/stat}), indexed by CPU number; -1 for a CPU without a line. irq and softirq
     * are left out: the kernel charges them to no task (the loopback's receive path runs there for
     * the compared processes themselves), so they cannot be told apart from the tasks' own.
     */
    public static long[] parseCpuBusyTicks(String procStat) {
        List<long[]> rows = new ArrayList<>();
        int max = -1;
        for (String line : procStat.split("\n")) {
            if (!line.startsWith("cpu") || line.length() < 4 || !Character.isDigit(line.charAt(3))) continue;
            String[] f = line.trim().split("\s+");
            if (f.length < 5) throw new IllegalArgumentException("a /proc/stat cpu line with " + f.length + " fields: " + line);
            try {
                int cpu = Integer.parseInt(f[0].substring(3));
                long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + (f.length > 8 ? Long.parseLong(f[8]) : 0);
                rows.add(new long[] {cpu, busy});
                max = Math.max(max, cpu);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("a /proc/stat cpu line with a field that is not a number: " + line, e);
            }
        }
        long[] busy = new long[max + 1];
        java.util.Arrays.fill(busy, -1);
        for (long[] r : rows) busy[(int) r[0]] = r[1];
        return busy;
    }

    /** {@link #parseCpuBusyTicks} of this machine's {@code /proc/stat}, or null when it cannot be read. */
    public static long[] cpuBusyTicks() {
        try {
            return parseCpuBusyTicks(Files.readString(Path.of("/proc/stat"), StandardCharsets.US_ASCII));
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The children of {@code pid} (of every thread of it), from /proc/PID/task/TID/children; empty when it is gone. */
    public static List<Long> children(long pid) {
        List<Long> children = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String list;
                try {
                    list = new String(Files.readAllBytes(task.resolve("children")), StandardCharsets.US_ASCII).trim();
                } catch (IOException threadEnded) {
                    continue;
                }
                if (list.isEmpty()) continue;
                for (String c : list.split("\\s+")) children.add(Long.parseLong(c));
            }
        } catch (IOException | RuntimeException gone) {
            return children;
        }
        return children;
    }

    /** Every live descendant of {@code pid}, breadth first (not {@code pid} itself). */
    public static List<Long> descendants(long pid) {
        List<Long> all = new ArrayList<>();
        List<Long> level = children(pid);
        // bounded: a pid cannot be its own descendant, and /proc lists a process once
        for (int depth = 0; depth < 64 && !level.isEmpty(); depth++) {
            all.addAll(level);
            List<Long> next = new ArrayList<>();
            for (long p : level) next.addAll(children(p));
            level = next;
        }
        return all;
    }

    /**
     * A number field of {@code /proc/PID/task/TID/status} ({@code VmRSS}, in kB;
     * {@code voluntary_ctxt_switches}), for the thread {@code tid} of {@code pid} (the process's
     * own with {@code tid == pid}), or -1 when the thread is gone or has no such field.
     */
    public static long status(long pid, long tid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "status"))) {
                if (line.startsWith(field) && line.length() > field.length() && line.charAt(field.length()) == ':') {
                    return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
        return -1;
    }

    /** Resident memory in bytes ({@code VmRSS}), or -1 when the process is gone. */
    public static long rssBytes(long pid) {
        long kb = status(pid, pid, "VmRSS");
        return kb < 0 ? -1 : kb * 1024;
    }

    /** The thread ids of {@code pid}; empty when it is gone. */
    public static List<Long> threads(long pid) {
        List<Long> tids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) tids.add(Long.parseLong(task.getFileName().toString()));
        } catch (IOException | RuntimeException gone) {
            return tids;
        }
        return tids;
    }

    /** The name of a thread ({@code /proc/PID/task/TID/comm}), or null when it is gone. */
    public static String threadName(long pid, long tid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "comm")).trim();
        } catch (IOException gone) {
            return null;
        }
    }
}
