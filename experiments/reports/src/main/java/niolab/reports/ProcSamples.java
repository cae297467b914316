package niolab.reports;

import niolab.common.ProcStat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code proc_sample} (scripts/lib.sh), the one /proc sampler of the scripts, saved: /proc's
 * own lines, each as {@code KEY TIME /proc/PATH:LINE}, where KEY names a measurement and TIME is
 * bash's EPOCHREALTIME when the sample began ({@code KEY TIME} alone is a sample of no process).
 *
 * <pre>
 *   run-1 1764620000.250000 /proc/42/stat:42 (java) S 1 ... (utime and stime: fields 14 and 15)
 *   run-1 1764620000.250000 /proc/42/task/43/stat:43 (loop-2) S ...
 *   run-1 1764620000.250000 /proc/42/status:VmRSS:	  51200 kB
 *   run-1 1764620000.250000 /proc/42/task/43/status:voluntary_ctxt_switches:	17
 * </pre>
 *
 * {@link #delta} compares a key's first and last sample, process by process and thread by thread:
 * one that is new in the last sample counts from zero, so a key sampled once gives the totals
 * since each process started. Clock ticks are USER_HZ, 100 a second on every Linux ABI the lab
 * runs on.
 */
final class ProcSamples {
    static final int TICKS_PER_SECOND = 100;
    private static final Pattern PATH = Pattern.compile("/proc/(\\d+)(?:/task/(\\d+))?/(stat|status)");
    /** The event-loop threads of a lab server: the Java main thread (named java, not the launcher's) and loop-2, loop-3... */
    private static final Pattern LOOP_THREAD = Pattern.compile("java|loop-\\d+");
    private static final Pattern JIT_THREAD = Pattern.compile("C[12] Compiler.*");

    /** One thread's counters at one sample. */
    private static final class Thread {
        String comm = "";
        long pid, utime, stime, voluntary, nonvoluntary;
    }

    /** One sample: the processes' CPU ticks (utime + stime of every thread they had), their threads, their memory. */
    private static final class Sample {
        final double time;
        final Map<Long, Long> processTicks = new HashMap<>();
        final Map<Long, Thread> threads = new HashMap<>();
        long rssKb;

        Sample(double time) {
            this.time = time;
        }

        Thread thread(long pid, long tid) {
            Thread t = threads.computeIfAbsent(tid, k -> new Thread());
            t.pid = pid;
            return t;
        }
    }

    /**
     * The changes of one key from its first sample to its last.
     *
     * @param loopThreads whether the last sample had an event-loop thread (see {@link #LOOP_THREAD})
     */
    record Delta(double seconds, long cpuTicks, long voluntary, long nonvoluntary, boolean loopThreads, long loopVoluntary,
            long loopUserTicks, long loopSysTicks, long jitTicks, long rssKb) {
    }

    private final Map<String, List<Sample>> byKey = new LinkedHashMap<>();

    static ProcSamples parse(String text, String source) {
        ProcSamples s = new ProcSamples();
        int number = 0;
        for (String line : text.split("\n")) {
            number++;
            if (line.isBlank()) continue;
            String[] f = line.split(" ", 3);
            if (f.length < 2) throw new IllegalArgumentException(source + " line " + number + ": not KEY TIME [/proc/...:LINE]");
            double time = Double.parseDouble(f[1]);
            List<Sample> samples = s.byKey.computeIfAbsent(f[0], k -> new ArrayList<>());
            if (samples.isEmpty() || samples.get(samples.size() - 1).time != time) samples.add(new Sample(time));
            if (f.length == 3) s.read(samples.get(samples.size() - 1), f[2], source + " line " + number);
        }
        return s;
    }

    private void read(Sample sample, String pathAndLine, String where) {
        int colon = pathAndLine.indexOf(':');
        Matcher m = PATH.matcher(colon < 0 ? "" : pathAndLine.substring(0, colon));
        if (!m.matches()) throw new IllegalArgumentException(where + ": not /proc/PID[/task/TID]/stat|status:LINE");
        long pid = Long.parseLong(m.group(1));
        String line = pathAndLine.substring(colon + 1);
        boolean process = m.group(2) == null;
        long tid = process ? pid : Long.parseLong(m.group(2));
        if (m.group(3).equals("stat")) {
            ProcStat stat;
            try {
                stat = ProcStat.parse(line);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
            if (process) {
                sample.processTicks.put(pid, stat.utime() + stat.stime());
            } else {
                Thread t = sample.thread(pid, tid);
                t.comm = stat.comm();
                t.utime = stat.utime();
                t.stime = stat.stime();
            }
        } else if (line.startsWith("VmRSS:")) {
            sample.rssKb += Long.parseLong(line.substring(6).replace("kB", "").trim());
        } else if (line.startsWith("voluntary_ctxt_switches:")) {
            sample.thread(pid, tid).voluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
            sample.thread(pid, tid).nonvoluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        }
    }

    /** The keys, in the order of their first sample. */
    List<String> keys() {
        return new ArrayList<>(byKey.keySet());
    }

    /** The key's first sample to its last, or null when the key was never sampled. */
    Delta delta(String key) {
        List<Sample> samples = byKey.get(key);
        if (samples == null) return null;
        Sample last = samples.get(samples.size() - 1);
        Sample first = samples.size() > 1 ? samples.get(0) : new Sample(last.time);
        long cpu = 0;
        for (Map.Entry<Long, Long> p : last.processTicks.entrySet()) cpu += p.getValue() - first.processTicks.getOrDefault(p.getKey(), 0L);
        long voluntary = 0, nonvoluntary = 0, loopVoluntary = 0, loopUser = 0, loopSys = 0, jit = 0;
        boolean loops = false;
        Thread none = new Thread();
        for (Map.Entry<Long, Thread> e : last.threads.entrySet()) {
            Thread now = e.getValue(), then = first.threads.getOrDefault(e.getKey(), none);
            voluntary += now.voluntary - then.voluntary;
            nonvoluntary += now.nonvoluntary - then.nonvoluntary;
            if (e.getKey() != now.pid && LOOP_THREAD.matcher(now.comm).matches()) {
                loops = true;
                loopVoluntary += now.voluntary - then.voluntary;
                loopUser += now.utime - then.utime;
                loopSys += now.stime - then.stime;
            }
            if (JIT_THREAD.matcher(now.comm).matches()) jit += now.utime + now.stime - then.utime - then.stime;
        }
        return new Delta(last.time - first.time, cpu, voluntary, nonvoluntary, loops, loopVoluntary, loopUser, loopSys, jit, last.rssKb);
    }
}
