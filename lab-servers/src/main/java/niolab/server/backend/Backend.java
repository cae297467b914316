package niolab.server.backend;

import java.nio.ByteBuffer;
import niolab.server.base.LoopDuty;
import niolab.server.base.WaitTimeout;
import niolab.server.proto.HttpConnection;

/**
 * An event loop's backend behind {@code /healthz}: one per loop, called by the loop's thread
 * only; {@code W} is how the loop names a connection (a SelectionKey on lt, an EtConnection on et).
 *
 * <pre>
 *   // after bind:               backend.start()                  seed the keys, connect
 *   // a /healthz, out empty:    int r = backend.call(conn, http, out)
 *   //   r == PARKED:            read no more from conn; the answer comes through Waiters.resume
 *   //   else:                   answered in out already (r: 0 or HttpPing.CLOSE); go on
 *   // the loop's wait timeout:  backend.boundWait(its own)       (the sooner of the two)
 *   // after each wait:          backend.afterWait()              send the batch, answers back, timeouts, reconnects
 *   // closing:                  backend.close()
 * </pre>
 * The three postures ({@link niolab.server.base.BackendMode}) differ only behind these five calls. The loop
 * makes one, {@code call}; its skeleton makes the other four, a {@link LoopDuty}'s.
 */
public interface Backend<W> extends LoopDuty {
    /** {@link #call}: the request waits; its answer will come through {@link Waiters#resume}. */
    int PARKED = -1;

    /**
     * {@code /healthz} for {@code waiter}, whose connection state is {@code http} and whose
     * output so far has been written ({@code out} is empty): answers into {@code out} now, or parks.
     */
    int call(W waiter, HttpConnection http, ByteBuffer out);

    /** The longest the loop may wait before {@link #afterWait} is due again (ms), or -1. */
    long waitMillis();

    /** The loop's own wait timeout {@code loopMs} (-1: none), shortened to {@link #waitMillis} if that is sooner. */
    @Override
    default long boundWait(long loopMs) {
        return WaitTimeout.sooner(loopMs, waitMillis());
    }
}
