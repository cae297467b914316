package niolab.uring;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import niolab.epoll.Errno;
import niolab.epoll.LibC;
import niolab.uring.CompletionLog.Cqe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import niolab.testkit.Capability;

/** The ring itself, without sockets: submission, waiting, the enter count, timers, cancel, a wakeup. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class IoUringTest {
    private static final long SECOND = 1_000_000_000L;
    private IoUring ring;

    @BeforeAll
    static void ioUringIsUsable() {
        Capability.IO_URING.assume();
    }

    @BeforeEach
    void open() throws Exception {
        ring = IoUring.open(4, 0, UringSupport.capabilities().setupFlags());
    }

    @AfterEach
    void close() {
        ring.close();
    }

    @Test
    void oneEnterSubmitsABatchAndWaitsForAllOfIt() throws Exception {
        for (long id = 1; id <= 3; id++) ring.sq().prepareNop(id);

        assertThat(ring.submitAndWait(3, SECOND)).isEqualTo(3);

        assertThat(ring.enterCalls()).isEqualTo(1);
        assertThat(ring.submittedSqes()).isEqualTo(3);
        CompletionLog log = new CompletionLog(ring);
        assertThat(log.unclaimed()).extracting(Cqe::userData).containsExactlyInAnyOrder(1L, 2L, 3L);
        assertThat(log.unclaimed()).extracting(Cqe::res).containsOnly(0);
        assertThat(ring.completions()).isEqualTo(3);
    }

    @Test
    void completionsAlreadyWaitingCostNoSyscall() throws Exception {
        ring.sq().prepareNop(1);
        ring.sq().prepareNop(2);
        ring.submitAndWait(2, SECOND);
        long enters = ring.enterCalls();

        assertThat(ring.submitAndWait(1, SECOND)).isEqualTo(2);

        assertThat(ring.enterCalls()).as("nothing to submit, enough to read").isEqualTo(enters);
    }

    @Test
    void aFullSubmissionQueueIsSubmittedToMakeRoom() throws Exception {
        int count = 10;  // the ring has 4 slots
        for (long id = 0; id < count; id++) ring.sq().prepareNop(id);
        assertThat(ring.enterCalls()).as("two early submits made room").isEqualTo(2);

        CompletionLog log = new CompletionLog(ring);
        for (long id = 0; id < count; id++) assertThat(log.await(id).res()).isZero();
        assertThat(ring.submittedSqes()).isEqualTo(count);
    }

    @Test
    void aTimeoutCompletesWithEtime() throws Exception {
        ring.sq().prepareTimeout(1_000_000, 7);
        assertThat(new CompletionLog(ring).await(7).res()).isEqualTo(-Errno.ETIME);
    }

    @Test
    void twoTimeoutsPreparedTogetherKeepTheirOwnDurations() throws Exception {
        ring.sq().prepareTimeout(3600 * SECOND, 1);  // each SQE slot has its own timespec
        ring.sq().prepareTimeout(1_000_000, 2);
        CompletionLog log = new CompletionLog(ring);

        assertThat(log.await(2).res()).isEqualTo(-Errno.ETIME);
        ring.submitAndWait(1, 50_000_000);  // a shared timespec would have fired both by now
        assertThat(log.unclaimed()).as("the hour-long one is still pending").isEmpty();
    }

    @Test
    void aCancelledRequestCompletesWithEcanceled() throws Exception {
        ring.sq().prepareTimeout(3600 * SECOND, 1);
        ring.submit();
        ring.sq().prepareCancel(1, 2);
        CompletionLog log = new CompletionLog(ring);

        assertThat(log.await(2).res()).as("cancel found its target").isZero();
        assertThat(log.await(1).res()).isEqualTo(-Errno.ECANCELED);
    }

    @Test
    void aTimedWaitWithNothingInFlightReturnsEmpty() throws Exception {
        assertThat(ring.submitAndWait(1, 10_000_000)).isZero();
        assertThat(ring.enterCalls()).as("the wait, then a call that does not wait, to read errno (ETIME)").isEqualTo(2);
    }

    @Test
    void anotherThreadWakesTheLoopThroughAnEventfd() throws Exception {
        int efd = LibC.eventfd(0, LibC.EFD_CLOEXEC);
        assertThat(efd).isGreaterThanOrEqualTo(0);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment counter = arena.allocate(8);
            ring.sq().prepareRead(efd, counter.address(), 8, 5);
            Thread waker = new Thread(() -> {
                try (Arena own = Arena.ofConfined()) {
                    MemorySegment one = own.allocate(ValueLayout.JAVA_LONG);
                    one.set(ValueLayout.JAVA_LONG, 0, 1);
                    LibC.write(efd, one.address(), 8);
                }
            });
            waker.start();

            assertThat(new CompletionLog(ring).await(5).res()).as("the 8-byte eventfd counter was read").isEqualTo(8);
            assertThat(counter.get(ValueLayout.JAVA_LONG, 0)).isEqualTo(1);
            waker.join(10_000);
        } finally {
            LibC.close(efd);
        }
    }

    @Test
    void aLinkedSqeRunsOnlyAfterItsPredecessorSucceeded() throws Exception {
        ring.sq().prepareNop(1);
        ring.sq().linkNext();
        ring.sq().prepareNop(2);
        ring.sq().prepareClose(-1, 3);
        ring.sq().linkNext();
        ring.sq().prepareNop(4);
        CompletionLog log = new CompletionLog(ring);

        assertThat(log.await(2).res()).as("after a success").isZero();
        assertThat(log.await(3).res()).isEqualTo(-Errno.EBADF);
        assertThat(log.await(4).res()).as("after a failure").isEqualTo(-Errno.ECANCELED);
    }

    @Test
    void aFailedSqeReportsItsErrnoAsTheResult() throws Exception {
        ring.sq().prepareClose(-1, 9);
        assertThat(new CompletionLog(ring).await(9).res()).isEqualTo(-Errno.EBADF);
        assertThat(ring.cq().overflow()).isZero();
    }
}
