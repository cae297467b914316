package niolab.server.base;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * What every architecture implements, event loop or not (an {@link EventLoop}, vt's acceptor
 * and threads, bio, mp's master, {@link MultiLoopServer}, the Netty peers): bind, then serve on
 * the calling thread until {@link #stop()}. {@link ServerRunner} does the rest (ready line,
 * signals, counters, errors).
 */
public interface Server {
    /** Binds and listens; returns the bound address (the real port when asked for port 0). */
    InetSocketAddress bind() throws IOException;

    /** Serves on this thread until stopped, then drains and closes every connection. */
    void run() throws IOException;

    /** Asks the loop to stop gracefully; safe from any thread (signal handlers call it). */
    void stop();

    Counters counters();

    /** What the ready line shows in brackets, e.g. {@code lt, echo}. */
    String label();
}
