package niolab.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProcStatTest {
    /** A command name with spaces and parentheses does not shift the fields after it. */
    @Test
    void fieldsAreCountedFromTheLastParenthesis() {
        String line = "4242 (a) b (c)) S 17 4242 4242 0 -1 4194560 100 0 0 0 1234 567 89 10 20 0 31 0 900 1000000 2560 "
                + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
        ProcStat s = ProcStat.parse(line);
        assertThat(s.pid()).isEqualTo(4242);
        assertThat(s.comm()).isEqualTo("a) b (c)");
        assertThat(s.state()).isEqualTo('S');
        assertThat(s.ppid()).isEqualTo(17);
        assertThat(s.utime()).isEqualTo(1234);
        assertThat(s.stime()).isEqualTo(567);
        assertThat(s.cpuTicks()).isEqualTo(1801);
        assertThat(s.reapedChildrenTicks()).isEqualTo(99);
        assertThat(s.threads()).isEqualTo(31);
        assertThat(s.rssPages()).isEqualTo(2560);
        assertThat(ProcStat.nanos(3)).isEqualTo(30_000_000L);
    }

    @Test
    void aMalformedLineIsNamed() {
        assertThatThrownBy(() -> ProcStat.parse("4242 no parentheses S 1")).hasMessageContaining("no '(comm)'");
        assertThatThrownBy(() -> ProcStat.parse("4242 (x) S 1 2 3")).hasMessageContaining("fields");
        assertThatThrownBy(() -> ProcStat.parse("4242 (x) S 1 2 3 4 5 6 7 8 9 10 x 12 13 14 15 16 17 18 19 20 21 22")).hasMessageContaining("not a number");
    }

    @Test
    void thisProcessAndAChildTreeAreRead() throws Exception {
        long self = ProcessHandle.current().pid();
        assertThat(ProcStat.self().pid()).isEqualTo(self);
        assertThat(ProcStat.read(self).threads()).isGreaterThan(1);
        assertThat(ProcStat.rssBytes(self)).isPositive();
        assertThat(ProcStat.status(self, self, "voluntary_ctxt_switches")).isGreaterThanOrEqualTo(0);
        assertThat(ProcStat.threads(self)).contains(self);
        assertThat(ProcStat.threadName(self, self)).isNotNull();
        Process sh = new ProcessBuilder("sh", "-c", "sleep 30 & sleep 30; wait").start();
        try {
            long sleeper = 0;
            for (int i = 0; i < 200 && ProcStat.descendants(sh.pid()).size() < 2; i++) Thread.sleep(10);
            assertThat(ProcStat.children(self)).contains(sh.pid());
            assertThat(ProcStat.descendants(sh.pid())).hasSize(2);
            sleeper = ProcStat.descendants(sh.pid()).get(0);
            assertThat(ProcStat.read(sleeper).ppid()).isEqualTo(sh.pid());
            assertThat(ProcStat.treeCpuTicks(sh.pid())).isGreaterThanOrEqualTo(0);
        } finally {
            ProcessHandle.of(sh.pid()).ifPresent(h -> h.descendants().forEach(ProcessHandle::destroyForcibly));
            sh.destroyForcibly();
            sh.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(ProcStat.read(sh.pid())).isNull();
        assertThat(ProcStat.treeCpuTicks(sh.pid())).isEqualTo(-1);
        assertThat(ProcStat.rssBytes(sh.pid())).isEqualTo(-1);
        assertThat(ProcStat.children(sh.pid())).isEmpty();
    }

    /** /proc/stat's per-CPU lines: user + nice + system + steal, by CPU number; the total line and irq/softirq left out. */
    @Test
    void perCpuBusyTicksAreReadByCpuNumber() {
        String stat = "cpu  100 1 50 900 5 2 7 3 0 0\n"
                + "cpu0 40 1 20 400 2 1 3 0 0 0\n"
                + "cpu2 60 0 30 500 3 1 4 3 0 0\n"
                + "intr 12345 0 0\nctxt 999\n";
        long[] busy = ProcStat.parseCpuBusyTicks(stat);
        assertThat(busy).containsExactly(61, -1, 93);
        assertThat(ProcStat.parseCpuBusyTicks("cpu0 1 2 3 4\n")).containsExactly(6);
        assertThatThrownBy(() -> ProcStat.parseCpuBusyTicks("cpu0 1 x 3 4 5 6 7 8\n")).hasMessageContaining("not a number");
        long[] here = ProcStat.cpuBusyTicks();
        assertThat(here).isNotNull();
        assertThat(here.length).as("a line per CPU up to the highest").isGreaterThanOrEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void cpuListsAreReadAsTheKernelWritesThem() {
        assertThat(ProcStat.cpuList("0-3,8,10-11\n").toString()).isEqualTo("{0, 1, 2, 3, 8, 10, 11}");
        assertThat(ProcStat.cpuList("1").cardinality()).isEqualTo(1);
        assertThatThrownBy(() -> ProcStat.cpuList("3-1")).hasMessageContaining("not a CPU list");
        assertThatThrownBy(() -> ProcStat.cpuList("a")).hasMessageContaining("not a CPU list");
        long self = ProcessHandle.current().pid();
        assertThat(ProcStat.cpusAllowed(self, self).cardinality()).isPositive();
        assertThat(ProcStat.cpusAllowed(self, Long.MAX_VALUE)).isNull();
    }

    /** The scheduler's nanosecond clock of every thread of a tree: a spinning child's grows, a gone process reads empty. */
    @Test
    void aTreesThreadsAreReadInNanoseconds() throws Exception {
        long self = ProcessHandle.current().pid();
        assertThat(ProcStat.treeTaskNanos(self)).anySatisfy(t -> assertThat(t.tid()).isEqualTo(self));
        assertThat(ProcStat.schedstatNanos(self, self)).isPositive();
        Process sh = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 100000000 ]; do i=$((i+1)); done").start();
        try {
            long first = total(ProcStat.treeTaskNanos(sh.pid()));
            long later = first;
            // bounded: the child spins, so its clock moves within a few scheduler ticks
            for (int i = 0; i < 500 && later <= first; i++) {
                Thread.sleep(10);
                later = total(ProcStat.treeTaskNanos(sh.pid()));
            }
            assertThat(later).isGreaterThan(first);
            assertThat(ProcStat.treeReapedTicks(sh.pid())).isGreaterThanOrEqualTo(0);
        } finally {
            sh.destroyForcibly();
            sh.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(ProcStat.treeTaskNanos(sh.pid())).isEmpty();
        assertThat(ProcStat.schedstatNanos(sh.pid(), sh.pid())).isEqualTo(-1);
    }

    private static long total(java.util.List<ProcStat.TaskTime> times) {
        long ns = 0;
        for (ProcStat.TaskTime t : times) ns += t.nanos();
        return ns;
    }
}
