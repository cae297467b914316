package niolab.server.base;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * MISTAKE herd: one listening socket polled by every loop of {@code --loops N}, as servers were
 * before SO_REUSEPORT. {@link MultiLoopServer} binds the first loop and has the others
 * {@link #join} its listener; each new connection then wakes them all. The last loop to stop
 * polling the listener closes it:
 *
 * <pre>
 *   SharedListener.join(loops[0], loops[i]);                 // instead of loops[i].bind()
 *   closeListener(): if (SharedListener.lastToLeave(this)) close it; else only stop polling it
 * </pre>
 *
 * Kept out of {@link EventLoop} so that the skeleton reads as the loop; only lt and et can share.
 */
public final class SharedListener {
    /** What an architecture that can share its listener does instead of {@link EventLoop#listen}. */
    public interface Poller {
        /** Adds {@code first}'s listener to what this loop waits on. */
        void pollListenerOf(EventLoop first) throws IOException;
    }

    private final AtomicInteger pollers = new AtomicInteger(1);

    private SharedListener() {
    }

    /** {@code loop} polls the listener {@code first} bound; its duty (a backend) starts as after a bind of its own. */
    static void join(EventLoop first, EventLoop loop) throws IOException {
        if (!(loop instanceof Poller)) throw new UnsupportedOperationException(loop.label() + " cannot share a listener");
        if (first.sharedListener == null) first.sharedListener = new SharedListener();
        loop.sharedListener = first.sharedListener;
        loop.sharedListener.pollers.incrementAndGet();
        ((Poller) loop).pollListenerOf(first);
        loop.duty.start();
    }

    /** {@code loop} stops polling its listener: true if it must close it (its own, or shared and the last to leave). */
    public static boolean lastToLeave(EventLoop loop) {
        return loop.sharedListener == null || loop.sharedListener.pollers.decrementAndGet() == 0;
    }
}
