package niolab.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class SkipGuardTest {
    @Test
    void aSkipForACapabilityTheMachineHasFailsInOneLineNamingTheTestAndTheCapability() {
        // HotSpot counts each thread's allocations: a capability every JVM the lab runs on has.
        Capability had = Capability.THREAD_ALLOCATION;
        assertThat(had.present()).as(had.absentBecause()).isTrue();
        Throwable judged = SkipGuard.judge(true, "ATest.aCase", skip(had, false, "its own check said no"));
        assertThat(judged).isInstanceOf(AssertionError.class)
                .hasMessage("skip guard: ATest.aCase skipped for " + had.label + ", which this machine has: [" + had.label + "] its own check said no");
        assertThat(judged.getMessage()).doesNotContain("\n");
    }

    @Test
    void aSkipNamingNoCapabilityFails() {
        Throwable judged = SkipGuard.judge(true, "ATest.aCase", new TestAbortedException("Assumption failed: why not"));
        assertThat(judged).isInstanceOf(AssertionError.class)
                .hasMessage("skip guard: ATest.aCase skipped without naming a capability: Assumption failed: why not");
    }

    @Test
    void aSkipBecauseTheMachineHasItIsFair() {
        CapabilitySkip skip = skip(Capability.THREAD_ALLOCATION, true, "tests what a JVM without it says");
        assertThat(SkipGuard.judge(true, "ATest.aCase", skip)).isSameAs(skip);
    }

    @Test
    void offTheGuardLetsEverySkipThroughAndFailuresAreNeverItsBusiness() {
        TestAbortedException plain = new TestAbortedException("plain");
        AssertionError failure = new AssertionError("a real failure");
        assertThat(SkipGuard.judge(false, "ATest.aCase", plain)).isSameAs(plain);
        assertThat(SkipGuard.judge(true, "ATest.aCase", failure)).isSameAs(failure);
    }

    @Test
    void aCapabilityIsProbedOnceAndSaysWhyItIsMissing() {
        for (Capability c : Capability.values()) {
            String first = c.absentBecause();
            assertThat(c.absentBecause()).as(c.label).isSameAs(first);
            assertThat(c.present()).isEqualTo(first == null);
            if (first != null) assertThat(first).as(c.label).isNotBlank().doesNotContain("\n");
        }
    }

    private static CapabilitySkip skip(Capability c, boolean becausePresent, String why) {
        return new CapabilitySkip(c, becausePresent, why);
    }
}
