package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** exp-syscalls' and exp-architectures' count sentences: the words follow which count is smaller. */
class CountComparisonTest {
    @Test
    void fewerMoreOrAsMany() {
        assertThat(CountComparison.fewerOrMore("ET", 9, "LT", 18.74, "syscalls per request"))
                .isEqualTo("ET: 9.00 syscalls per request, LT: 18.74; ET makes 52.0% fewer than LT");
        assertThat(CountComparison.fewerOrMore("ET", 20, "LT", 10, "syscalls per request")).endsWith("ET makes 100.0% more than LT");
        assertThat(CountComparison.fewerOrMore("ET", 10.001, "LT", 10, "syscalls per request")).endsWith("ET makes as many as LT");
    }
}
