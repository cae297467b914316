package niolab.reports;

import java.util.Map;
import java.util.TreeMap;

/**
 * The syscall counts of one architecture under one workload, as exp-syscalls' script writes them
 * (bench-ARCH-W.json, counters-ARCH-W.txt, syscalls-ARCH-W.csv): strace's counts by thread and
 * kind, and the server's counters. The loader every report that counts syscalls shares.
 */
final class SyscallCounts {
    final double requests;
    /** thread ("loop" or "jvm") → syscall → {calls, errors, eagain}, summed over the processes. */
    final Map<String, Map<String, long[]>> byThread = new TreeMap<>();
    final ServerCounters counters;
    final Map<String, long[]> byProcess = new TreeMap<>();

    SyscallCounts(Results r, String arch, String w) {
        requests = r.bench("bench-" + arch + "-" + w + ".json").runs().get(0).requests();
        counters = r.counters("counters-" + arch + "-" + w + ".txt");
        for (Map<String, String> row : r.csv("syscalls-" + arch + "-" + w + ".csv").rows()) {
            long[] v = byThread.computeIfAbsent(row.get("thread"), k -> new TreeMap<>())
                    .computeIfAbsent(row.get("syscall"), k -> new long[3]);
            long[] p = byProcess.computeIfAbsent(row.get("process"), k -> new long[3]);
            long[] add = {Long.parseLong(row.get("calls")), Long.parseLong(row.get("errors")), Long.parseLong(row.get("eagain"))};
            for (int i = 0; i < 3; i++) {
                v[i] += add[i];
                p[i] += add[i];
            }
        }
    }

    Map<String, long[]> thread(String t) {
        return byThread.getOrDefault(t, Map.of());
    }

    double perRequest(String thread, String syscall, int column) {
        long[] v = thread(thread).get(syscall);
        return v == null ? 0 : v[column] / requests;
    }

    double total(String thread, int column) {
        long s = 0;
        for (long[] v : thread(thread).values()) s += v[column];
        return s / requests;
    }

    double waits() {
        return perRequest("loop", "epoll_wait", 0) + perRequest("loop", "epoll_pwait", 0);
    }

    double counterEagain() {
        return (counters.get("reads_eagain") + counters.get("writes_eagain")) / requests;
    }
}
