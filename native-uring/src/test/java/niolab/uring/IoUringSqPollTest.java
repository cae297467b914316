package niolab.uring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A ring whose SQ a kernel thread polls: SQEs reach the kernel without a submitting syscall, and after the thread slept, with a wakeup. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class IoUringSqPollTest {
    private static final int IDLE_MS = 1;

    @BeforeAll
    static void sqPollIsUsable() {
        Capability.IO_URING.assume();
        String refused = UringSupport.sqPollReason();
        Assumptions.assumeTrue(refused == null, refused);
    }

    @Test
    void moreSqesThanTheRingHoldsAllComplete() throws Exception {
        try (IoUring ring = IoUring.openSqPoll(4, 0, UringSupport.sqPollSetupFlags(), IDLE_MS)) {
            assertThat(ring.setupFlags() & IoUringConstants.IORING_SETUP_SQPOLL).isNotZero();
            // 10 NOPs in a 4-slot SQ: preparing the fifth waits (SQ_WAIT) until the thread made room
            for (long id = 1; id <= 10; id++) ring.sq().prepareNop(id);
            CompletionLog log = new CompletionLog(ring);
            for (long id = 1; id <= 10; id++) assertThat(log.await(id).res()).isZero();
            assertThat(ring.submittedSqes()).isEqualTo(10);
        }
    }

    @Test
    void aSleepingThreadIsWokenForTheNextSqe() throws Exception {
        try (IoUring ring = IoUring.openSqPoll(4, 0, UringSupport.sqPollSetupFlags(), IDLE_MS)) {
            CompletionLog log = new CompletionLog(ring);
            ring.sq().prepareNop(1);
            assertThat(log.await(1).res()).isZero();
            // the thread sleeps after IDLE_MS without SQEs; the loop must see NEED_WAKEUP and wake it
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while ((ring.sq().kernelFlags() & IoUringConstants.IORING_SQ_NEED_WAKEUP) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(ring.sq().kernelFlags() & IoUringConstants.IORING_SQ_NEED_WAKEUP).as("the thread slept").isNotZero();
            ring.sq().prepareNop(2);
            assertThat(log.await(2).res()).isZero();
        }
    }
}
