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
}
