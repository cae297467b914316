package niolab.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * Bounds every blocking call of the serial client by {@code --timeout} without a syscall per
 * request: the client stamps a deadline into a volatile field before each call, and this
 * thread, which sleeps until the earliest deadline that can have passed, aborts the socket
 * when a stamp is still there after its deadline.
 *
 * <pre>
 *   socket.open();                       // calls that never block
 *   watchdog.watch(socket);              // from here the watchdog may abort it
 *   watchdog.arm(); socket.connect();    // a fresh deadline before every blocking call
 *   watchdog.arm(); socket.write();
 *   boolean timedOut = watchdog.release();
 *   socket.close();                      // after release: the watchdog never touches a closed socket
 * </pre>
 *
 * <p>Arming is one volatile store; {@link #watch} and {@link #release} take an uncontended
 * monitor (a compare-and-swap each, no syscall). The thread wakes about once per timeout
 * whatever the request rate: when it wakes, the stamp it slept on has normally been replaced
 * by a later one, and it sleeps again until that one.
 */
final class Watchdog implements Runnable {
    private static final long IDLE = 0;

    private final long timeoutNanos;
    /** When the current blocking call must have returned, or IDLE. */
    private volatile long deadline = IDLE;
    private volatile boolean stopped;
    // guarded by this
    private SerialSocket socket;
    private boolean fired;
    private Thread thread;

    Watchdog(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    void start(String name) {
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the thread and waits for it (bounded). */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The socket that the next armed calls belong to. */
    synchronized void watch(SerialSocket s) {
        socket = s;
        fired = false;
    }

    /** The next blocking call must return within the timeout. */
    void arm() {
        deadline = System.nanoTime() + timeoutNanos;
    }

    /** Lets go of the socket; true if it was aborted because a call outlived its deadline. */
    synchronized boolean release() {
        socket = null;
        deadline = IDLE;
        return fired;
    }

    @Override
    public void run() {
        while (!stopped) {
            long d = deadline;
            long wait = d == IDLE ? timeoutNanos : d - System.nanoTime();
            if (wait > 0) {
                // A deadline armed during this sleep lies beyond its end: none can be overslept.
                LockSupport.parkNanos(this, wait);
            } else {
                fire(d);
            }
        }
    }

    private synchronized void fire(long expired) {
        if (socket == null || deadline != expired) return; // released or re-armed meanwhile
        fired = true;
        deadline = IDLE;
        socket.abort();
    }
}
