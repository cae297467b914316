package niolab.server.backend;

import niolab.server.proto.Healthz;

/** The loop's side of a {@link Backend}: where the answer to a parked {@code /healthz} goes. */
public interface Waiters<W> {
    /**
     * On the loop's thread: the answer for the {@code /healthz} that {@code waiter} parked while
     * its connection state had {@code generation}. The loop writes it ({@link Healthz#write}),
     * goes on with the requests kept behind it, and reads the connection again; a waiter closed
     * meanwhile (or whose slot now serves another connection) is skipped.
     */
    void resume(W waiter, long generation, Healthz.Answer answer);
}
