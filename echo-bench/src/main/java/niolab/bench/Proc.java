package niolab.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What Linux says about processes and sockets: CPU time from {@code /proc/PID/stat}, TIME-WAIT
 * sockets from {@code /proc/net/sockstat}, the ephemeral port range. Every reader returns -1 (or
 * null) where the file is missing, so a report says "unknown" instead of failing.
 */
public final class Proc {
    /**
     * USER_HZ, the unit of utime and stime in /proc/PID/stat. The kernel fixes it at 100 on every
     * mainstream architecture whatever CONFIG_HZ is ({@code getconf CLK_TCK} prints it): 10 ms ticks,
     * so a server CPU figure needs a run of a few seconds to be meaningful.
     */
    public static final long CLK_TCK = 100;

    private Proc() {
    }

    /** CPU time (user + system) of this JVM, ns. */
    public static long selfCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }

    /**
     * CPU time (utime + stime, ns at tick resolution) of {@code pid} and its descendants (the mp
     * master's workers), or -1 when {@code pid} cannot be read.
     */
    public static long cpuNanos(long pid) {
        long ticks = ticks(pid);
        if (ticks < 0) return -1;
        var children = ProcessHandle.of(pid).map(ProcessHandle::descendants);
        if (children.isPresent()) {
            for (ProcessHandle h : (Iterable<ProcessHandle>) children.get()::iterator) {
                long t = ticks(h.pid());
                if (t > 0) ticks += t;
            }
        }
        return ticks * (1_000_000_000L / CLK_TCK);
    }

    /** utime + stime of one process, in clock ticks, or -1. */
    static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name (field 2) may hold spaces and parentheses: fields restart after the last ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Sockets in TIME-WAIT ({@code TCP: inuse .. tw N} in /proc/net/sockstat), or -1. */
    public static long timeWait() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/net/sockstat"))) {
                if (!line.startsWith("TCP:")) continue;
                String[] f = line.trim().split("\\s+");
                for (int i = 1; i + 1 < f.length; i++) {
                    if (f[i].equals("tw")) return Long.parseLong(f[i + 1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** {@code net.ipv4.ip_local_port_range} as "32768-60999", or null. */
    public static String localPortRange() {
        try {
            List<String> l = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
            return l.isEmpty() ? null : l.get(0).trim().replaceAll("\\s+", "-");
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code net.ipv4.tcp_tw_reuse}, or null. */
    public static String twReuse() {
        try {
            return Files.readString(Path.of("/proc/sys/net/ipv4/tcp_tw_reuse")).trim();
        } catch (IOException e) {
            return null;
        }
    }
}
