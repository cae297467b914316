package niolab.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import niolab.common.ProcStat;

/**
 * What Linux says about processes and sockets: CPU time (through lab-common's {@link ProcStat}), TIME-WAIT
 * sockets from {@code /proc/net/sockstat}, the ephemeral port range. Every reader returns -1 (or
 * null) where the file is missing, so a report says "unknown" instead of failing.
 */
public final class Proc {
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
     * CPU time (ns at 10 ms tick resolution) of {@code pid}, its threads and its descendants (an mp
     * master's workers; the server under a {@code taskset} or {@code sh -c} wrapper), or -1 when
     * {@code pid} cannot be read: lab-common's {@link ProcStat} reads /proc.
     */
    public static long cpuNanos(long pid) {
        long ticks = ProcStat.treeCpuTicks(pid);
        return ticks < 0 ? -1 : ProcStat.nanos(ticks);
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
