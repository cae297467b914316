package niolab.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The serial client's one connection at a time, as blocking calls: its only contact with the
 * kernel. One instance serves a whole run, a fresh socket per request; the two buffers are
 * given once, so nothing is allocated per call.
 *
 * <p>Two ways to make the calls, picked by {@link Kind#forRun}:
 * <ul>
 *   <li>{@link Kind#FFM} (JDK 22+, {@code FfmSerialSocket}): socket, setsockopt, connect, write,
 *       read and close called directly through {@code java.lang.foreign}: the syscalls of a
 *       minimal C client, and no others.</li>
 *   <li>{@link Kind#CHANNEL} (any JDK, {@link ChannelSerialSocket}): a blocking
 *       {@code SocketChannel}: the same calls plus two {@code getsockname} per connect, which the
 *       JDK makes to learn the local address and offers no way to skip.</li>
 * </ul>
 * A cold client ({@code --cold-client} without {@code --warmup}) takes the channel (FFM's call
 * paths are slow until compiled: {@link Kind#forRun} says how much); by default the client warms
 * itself first ({@link ClientWarmup}) and takes FFM. {@code -Decho-bench.serial-socket=channel}
 * picks the channel even where FFM is available and the run warms up, {@code =ffm} picks FFM even
 * for a cold run.
 */
interface SerialSocket {
    /** A new socket with TCP_NODELAY (and SO_LINGER 0 under --linger0): calls that never block. */
    void open() throws IOException;

    /** Connects to the target; blocks until the handshake is done. */
    void connect() throws IOException;

    /** Writes the output buffer from its position to its limit, all of it. */
    void write() throws IOException;

    /** Reads what has arrived into the input buffer at its position (blocks until something has); -1 at end of stream. */
    int read() throws IOException;

    /** Closes the socket, quietly: nothing is left to tell the peer. */
    void close();

    /** From another thread: makes the call blocked on this socket return at once, with an exception or end of stream. */
    void abort();

    /** How the calls are made. */
    enum Kind {
        /** A blocking {@code java.nio.channels.SocketChannel}: any JDK. */
        CHANNEL("SocketChannel"),
        /** Raw syscalls through the Foreign Function and Memory API: JDK 22+, and a build on JDK 22+. */
        FFM("FFM");

        private static final String FFM_CLASS = "niolab.bench.FfmSerialSocket";
        static final String PROPERTY = "echo-bench.serial-socket";

        /** How a run's header names it. */
        final String label;

        Kind(String label) {
            this.label = label;
        }

        /**
         * FFM where this JVM and this build have it and the run warms up first, else the channel;
         * the property ({@code channel} or {@code ffm}) overrides. A cold run takes the channel
         * because FFM's call paths are slow until compiled, slower then than the channel's, and
         * faster once warm (experiments/exp-ffi.md measures the bindings' cost per call).
         */
        static Kind forRun(boolean warmsUp) {
            String asked = System.getProperty(PROPERTY);
            if ("channel".equals(asked)) return CHANNEL;
            boolean ffm = warmsUp || "ffm".equals(asked);
            return ffm && FFM.available() ? FFM : CHANNEL;
        }

        boolean available() {
            if (this == CHANNEL) return true;
            if (Runtime.version().feature() < 22) return false;
            try {
                Class.forName(FFM_CLASS, false, Kind.class.getClassLoader()); // not initialized: no native access yet
                return true;
            } catch (ClassNotFoundException e) {
                return false; // built on an older JDK: the class was not compiled
            }
        }

        /** A socket for {@code target} reading into {@code in} and writing from {@code out} (both direct). */
        SerialSocket create(InetSocketAddress target, boolean linger0, ByteBuffer out, ByteBuffer in) {
            if (this == CHANNEL) return new ChannelSerialSocket(target, linger0, out, in);
            try {
                return (SerialSocket) Class.forName(FFM_CLASS)
                        .getConstructor(InetSocketAddress.class, boolean.class, ByteBuffer.class, ByteBuffer.class)
                        .newInstance(target, linger0, out, in);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot create the FFM serial socket", e);
            }
        }
    }
}
