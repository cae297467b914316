package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code summarize strace}: a trace's calls by thread (loop or jvm) and kind, and strace -c's table. */
class StraceCountTest {
    @Test
    void callsCountWhenTheirResultShowsByLoopAndOtherThreads() {
        String trace = String.join("\n",
                "100 epoll_wait(5, [{events=EPOLLIN, data={u32=6, u64=6}}], 1024, -1) = 1",
                "100 accept4(4, NULL, NULL, SOCK_NONBLOCK) = 7",
                "100 accept4(4, NULL, NULL, SOCK_NONBLOCK) = -1 EAGAIN (Resource temporarily unavailable)",
                "101 futex(0x7f, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>",
                "100 read(7, \"abc\", 64) = 3",
                "101 <... futex resumed>) = -1 ETIMEDOUT (Connection timed out)",
                "101 --- SIGSEGV {si_signo=SIGSEGV} ---",
                "100 epoll_wait(5,  <unfinished ...>",
                "102 futex(0x1, FUTEX_WAKE_PRIVATE, 1) = 0",
                "100 <... epoll_wait resumed>[], 1024, 0) = 0",
                "101 +++ exited with 0 +++");
        // the rows the awk of experiments/scripts/strace.sh printed for this trace, before this class
        assertThat(StraceCount.rows(trace, "server")).containsExactly(
                "server,jvm,futex,2,1,0",
                "server,loop,accept4,2,1,1",
                "server,loop,epoll_wait,2,0,0",
                "server,loop,read,1,0,0");
    }

    @Test
    void strace_cTableRowsWithoutTheTotal() {
        String table = String.join("\n",
                "% time     seconds  usecs/call     calls    errors syscall",
                "------ ----------- ----------- --------- --------- ----------------",
                " 61.05    0.010000          12       800       304 futex",
                " 38.95    0.006380           6      1001           read",
                "------ ----------- ----------- --------- --------- ----------------",
                "100.00    0.016380           9      1801       304 total");
        assertThat(StraceCount.summaryRows(table, "500")).containsExactly("500,futex,800,304", "500,read,1001,0");
    }
}
