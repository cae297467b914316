package niolab.server.base;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * One architecture's server: bind, then run the event loop on the calling thread until
 * {@link #stop()}. {@link ServerRunner} does the rest (ready line, signals, counters, errors).
 */
public interface Server {
    /** Binds and listens; returns the bound address (the real port when asked for port 0). */
    InetSocketAddress bind() throws IOException;

    /** Runs the loop on this thread until stopped, then drains and closes every connection. */
    void run() throws IOException;

    /** Asks the loop to stop gracefully; safe from any thread (signal handlers call it). */
    void stop();

    Counters counters();

    /** What the ready line shows in brackets, e.g. {@code lt, echo}. */
    String label();
}
