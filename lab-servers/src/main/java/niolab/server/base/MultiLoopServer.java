package niolab.server.base;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;

/**
 * {@code --loops N}: N event loops in one JVM, each on its own thread with its own listening
 * socket, all in one SO_REUSEPORT group, so the kernel spreads new connections over them by a
 * hash of their addresses, as it does over mp's worker JVMs. This is the multi-reactor model
 * (Netty's: one event loop per core) beside mp's processes: one heap, one JIT, no supervision.
 *
 * <pre>
 *   lab-server et --loops 2        # listening on 127.0.0.1:9988 (et, 2 loops, echo)
 *   kill -TERM $pid                # [loop1] counters: ...  [loop2] counters: ...  counters: (the sum)
 * </pre>
 *
 * With {@code --mistake herd} the loops instead poll one listening socket, as servers did before
 * SO_REUSEPORT: each new connection wakes every loop, and all but one find nothing to accept
 * ({@code empty_accepts} in each loop's counters).
 */
public final class MultiLoopServer implements Server {
    private final ServerFactory factory;
    private final Server[] loops;
    private final ServerConfig config;
    /** What the loops are made from: the command's config, on the port the first bound. */
    private ServerConfig loopConfig;
    private final PrintStream out;
    /** Stopped before every loop was made (an mp worker whose master went while it bound). */
    private volatile boolean stopped;

    public MultiLoopServer(ServerFactory factory, ServerConfig config, PrintStream out) {
        this.factory = factory;
        this.config = config;
        this.out = out;
        // Every loop's listener joins the port's group. MISTAKE herd: one listener, no group of our own.
        // BEGIN SOLUTION loops-reuseport
        // STUB: // TODO lab 7: bind() gives every loop a listening socket of its own on one port. As here, the
        // STUB: // second bind fails (address already in use). Which socket option lets several sockets listen on
        // STUB: // one port, and how does the kernel then pick the one a new connection goes to? ServerOptions has it.
        // STUB: // Leave it off under the mistake: the loops-herd checkpoint expects this line to decide.
        // STUB: ServerOptions each = options; // MISTAKE herd: the loops share loop 1's listener, no option needed
        ServerConfig each = config.mistakes().herd ? config : config.withReusePort();
        // END SOLUTION
        loopConfig = each;
        loops = new Server[config.loops()];
        loops[0] = newLoop(0, each);
    }

    private Server newLoop(int i, ServerConfig o) {
        Server loop = factory.newServer(o);
        if (loop instanceof EventLoop) ((EventLoop) loop).nameInLogs(config.arch() + " loop" + (i + 1));
        return loop;
    }

    /** Binds the first loop (which resolves port 0), then makes the others on the port it bound and binds them. */
    @Override
    public InetSocketAddress bind() throws IOException {
        InetSocketAddress bound = loops[0].bind();
        loopConfig = loopConfig.withPort(bound.getPort());
        for (int i = 1; i < loops.length; i++) {
            loops[i] = newLoop(i, loopConfig);
            if (stopped) loops[i].stop();
            if (config.mistakes().herd) {
                SharedListener.join((EventLoop) loops[0], (EventLoop) loops[i]); // MISTAKE herd: every loop polls one socket
            } else {
                try {
                    loops[i].bind();
                } catch (IOException | RuntimeException e) {
                    throw new ServerRunner.BindFailedOn(loopConfig.port(), e); // the port loop 1 resolved from 0
                }
            }
        }
        return bound;
    }

    /** Runs loop 1 on this thread and the others on their own; when one ends, all stop. */
    @Override
    public void run() throws IOException {
        Thread[] threads = new Thread[loops.length];
        IOException[] failures = new IOException[loops.length];
        for (int i = 1; i < loops.length; i++) {
            final int n = i;
            threads[i] = new Thread(() -> failures[n] = runLoop(n), "loop-" + (i + 1));
            threads[i].start();
        }
        failures[0] = runLoop(0);
        for (int i = 1; i < loops.length; i++) {
            try {
                threads[i].join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (int i = 0; i < loops.length; i++) out.println("[loop" + (i + 1) + "] counters: " + loops[i].counters().format());
        for (IOException f : failures) {
            if (f != null) throw f;
        }
    }

    private IOException runLoop(int i) {
        try {
            loops[i].run();
            return null;
        } catch (IOException e) {
            return e;
        } catch (RuntimeException e) {
            return new IOException(ServerRunner.describe(e), e);
        } finally {
            stop(); // one loop gone: the server is no longer what it said it was
        }
    }

    @Override
    public void stop() {
        stopped = true;
        for (Server l : loops) {
            if (l != null) l.stop();
        }
    }

    /** The sum over the loops made so far; like each loop's own, a reading may lag by an event or two. */
    @Override
    public Counters counters() {
        Counters sum = new Counters(loops[0].counters().waitName());
        for (Server l : loops) {
            if (l != null) sum.addAll(l.counters());
        }
        return sum;
    }

    @Override
    public String label() {
        return config.label(config.arch() + ", " + loops.length + " loops");
    }
}
