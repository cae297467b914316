package niolab.uring;

import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import niolab.epoll.ErrnoException;

/** Completions of a ring kept in arrival order, for functional tests (it allocates; the loops under test do not). */
final class CompletionLog implements CompletionHandler {
    record Cqe(long userData, int res, int flags) {
        boolean more() {
            return CompletionQueue.hasMore(flags);
        }
    }

    private static final long WAIT_SLICE_NANOS = 100_000_000L;
    private static final long DEADLINE_NANOS = 10_000_000_000L;

    private final IoUring ring;
    private final List<Cqe> unclaimed = new ArrayList<>();

    CompletionLog(IoUring ring) {
        this.ring = ring;
    }

    @Override
    public void onCompletion(long userData, int res, int flags) {
        unclaimed.add(new Cqe(userData, res, flags));
    }

    /** Submits what is prepared, then returns (and removes) the next completion for {@code userData}, waiting at most 10 s. */
    Cqe await(long userData) throws ErrnoException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (true) {
            for (Iterator<Cqe> it = unclaimed.iterator(); it.hasNext(); ) {
                Cqe cqe = it.next();
                if (cqe.userData() == userData) {
                    it.remove();
                    return cqe;
                }
            }
            if (System.nanoTime() > deadline) fail("no completion for user_data " + Long.toHexString(userData) + "; got " + unclaimed);
            ring.submitAndWait(1, WAIT_SLICE_NANOS);
            ring.cq().forEach(this);
        }
    }

    /** Completions received and not claimed by {@link #await}. */
    List<Cqe> unclaimed() {
        ring.cq().forEach(this);
        return unclaimed;
    }
}
