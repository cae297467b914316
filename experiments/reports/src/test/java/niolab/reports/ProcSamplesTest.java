package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** proc_sample's lines (scripts/lib.sh) read back: CPU ticks, switches, loop and JIT threads, memory. */
class ProcSamplesTest {
    /** A stat line of PID/TID named COMM with the given utime and stime (fields 14 and 15). */
    private static String stat(long id, String comm, long utime, long stime) {
        return id + " (" + comm + ") S 1 1 1 0 -1 4194304 100 0 0 0 " + utime + " " + stime + " 0 0 20 0 2 0 100 0 0";
    }

    private static String sample(String key, String time, long mainUser, long loopUser, long loopSys, long jit, long voluntary,
            boolean withNewThread) {
        StringBuilder b = new StringBuilder();
        String p = key + " " + time + " ";
        b.append(key).append(' ').append(time).append('\n');
        b.append(p).append("/proc/7/stat:").append(stat(7, "java", mainUser + loopUser + jit, loopSys)).append('\n');
        b.append(p).append("/proc/7/task/7/stat:").append(stat(7, "java", 1, 0)).append('\n');
        b.append(p).append("/proc/7/task/8/stat:").append(stat(8, "java", loopUser, loopSys)).append('\n');
        b.append(p).append("/proc/7/task/9/stat:").append(stat(9, "C2 CompilerThre", jit, 0)).append('\n');
        b.append(p).append("/proc/7/status:VmRSS:\t   2048 kB\n");
        b.append(p).append("/proc/7/task/7/status:voluntary_ctxt_switches:\t3\n");
        b.append(p).append("/proc/7/task/8/status:voluntary_ctxt_switches:\t").append(voluntary).append('\n');
        b.append(p).append("/proc/7/task/8/status:nonvoluntary_ctxt_switches:\t").append(voluntary / 10).append('\n');
        if (withNewThread) {
            b.append(p).append("/proc/7/task/10/stat:").append(stat(10, "loop-2", 5, 5)).append('\n');
            b.append(p).append("/proc/7/task/10/status:voluntary_ctxt_switches:\t4\n");
        }
        return b.toString();
    }

    @Test
    void aKeyFromItsFirstSampleToItsLast() {
        ProcSamples s = ProcSamples.parse(sample("r1", "100.25", 10, 40, 20, 7, 100, false)
                + sample("other", "100.30", 0, 0, 0, 0, 0, false)
                + sample("r1", "102.75", 30, 140, 50, 9, 600, true), "proc.txt");
        ProcSamples.Delta d = s.delta("r1");
        assertThat(d.seconds()).isEqualTo(2.5);
        assertThat(d.cpuTicks()).isEqualTo((30 + 140 + 9 + 50) - (10 + 40 + 7 + 20));
        assertThat(d.loopThreads()).isTrue();
        // thread 8 and thread 10, new in the last sample, counted from zero; the launcher (tid 7) is no loop
        assertThat(d.loopUserTicks()).isEqualTo(100 + 5);
        assertThat(d.loopSysTicks()).isEqualTo(30 + 5);
        assertThat(d.loopVoluntary()).isEqualTo(500 + 4);
        assertThat(d.voluntary()).isEqualTo(500 + 4);
        assertThat(d.nonvoluntary()).isEqualTo(60 - 10);
        assertThat(d.jitTicks()).isEqualTo(2);
        assertThat(d.rssKb()).isEqualTo(2048);
        assertThat(s.keys()).containsExactly("r1", "other");
    }

    @Test
    void aCommandNameWithSpacesAndParenthesesIsSkippedWhole() {
        ProcSamples s = ProcSamples.parse("k 1.0 /proc/3/stat:" + stat(3, "a) (b c", 4, 5) + "\n", "proc.txt");
        assertThat(s.delta("k").cpuTicks()).isEqualTo(9);
    }

    @Test
    void aKeySampledOnceGivesTheTotals() {
        ProcSamples.Delta d = ProcSamples.parse(sample("ready", "5.0", 10, 40, 20, 7, 100, false), "proc.txt").delta("ready");
        assertThat(d.cpuTicks()).isEqualTo(77);
        assertThat(d.jitTicks()).isEqualTo(7);
        assertThat(d.seconds()).isZero();
    }

    @Test
    void aProcessGoneBeforeItsSampleLeavesAnEmptySample() {
        ProcSamples d = ProcSamples.parse("k 1.0\n", "proc.txt");
        assertThat(d.delta("k").cpuTicks()).isZero();
        assertThat(d.delta("k").loopThreads()).isFalse();
        assertThat(d.delta("missing")).isNull();
    }

    @Test
    void aLineNotFromTheSamplerIsAnError() {
        assertThatThrownBy(() -> ProcSamples.parse("k 1.0 /sys/x:1\n", "proc.txt"))
                .hasMessageContaining("proc.txt line 1");
    }
}
