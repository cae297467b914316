package niolab.epoll;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The calls an event loop makes per event allocate nothing, on either binding: 25,000 rounds
 * of {@code epoll_wait(0)} on an empty set, {@code read} of an empty socket (EAGAIN), a 64-byte
 * {@code send} (its peer drained every 64 sends by {@code read}) and {@code errno}, counted by
 * the JVM's per-thread allocation counter once the loop is compiled.
 */
class HotCallAllocationTest {
    private static final int ROUNDS = 25_000;
    private static final int DRAIN_EVERY = 64;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    @Timeout(120)
    void hotCallsAllocateLessThanOneBytePerCall(String binding) throws Exception {
        Syscalls sys = BindingsUnderTest.open(binding);
        int[] pair = Sockets.loopbackPair(sys);
        try (Epoll empty = Epoll.create(sys); EpollEvents events = new EpollEvents(sys, 64);
                NativeBuffer out = NativeBuffer.allocate(sys, 64); NativeBuffer in = NativeBuffer.allocate(sys, 65536)) {
            Calls calls = new Calls(sys, empty.fd(), events, pair[0], pair[1], out, in);
            calls.run(ROUNDS); // warm-up: the measured loop below runs compiled, as a server's does
            calls.run(ROUNDS);
            THREADS.getCurrentThreadAllocatedBytes();

            // The JIT may take a few more rounds to compile the loop whole (FFM's downcalls allocate
            // until then); a call that allocates for good never gets under the bound.
            long made;
            long allocated;
            int round = 0;
            do {
                long before = THREADS.getCurrentThreadAllocatedBytes();
                made = calls.run(ROUNDS);
                allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
            } while ((double) allocated / made >= 1.0 && ++round < 8);

            assertThat(made).isGreaterThan(4L * ROUNDS);
            assertThat(calls.sent).as("sends that went through").isGreaterThan(ROUNDS / 2);
            assertThat((double) allocated / made).as("bytes per call (%d bytes, %d calls)", allocated, made)
                    .isLessThan(1.0);
        } finally {
            sys.close(pair[0]);
            sys.close(pair[1]);
        }
    }

    /** The measured loop, in its own method so that it is compiled as a whole. */
    private static final class Calls {
        final Syscalls sys;
        final int epfd;
        final EpollEvents events;
        final int sender;
        final int receiver;
        final NativeBuffer out;
        final NativeBuffer in;
        long sent;

        Calls(Syscalls sys, int epfd, EpollEvents events, int sender, int receiver, NativeBuffer out, NativeBuffer in) {
            this.sys = sys;
            this.epfd = epfd;
            this.events = events;
            this.sender = sender;
            this.receiver = receiver;
            this.out = out;
            this.in = in;
        }

        /** Returns the number of calls made; fails on any outcome but the expected ones. */
        long run(int rounds) {
            long made = 0;
            sent = 0;
            for (int i = 0; i < rounds; i++) {
                if (sys.epoll_wait(epfd, events.address(), events.capacity(), 0) != 0) throw new AssertionError("epoll_wait");
                if (sys.read(sender, in.address(), in.size()) != -1 || sys.errno() != Errno.EAGAIN) {
                    throw new AssertionError("read of an empty socket");
                }
                long w = sys.send(sender, out.address(), out.size(), Linux.MSG_NOSIGNAL);
                if (w == out.size()) {
                    sent++;
                } else if (w != -1 || sys.errno() != Errno.EAGAIN) {
                    throw new AssertionError("send");
                }
                made += 4;
                if (i % DRAIN_EVERY == 0) {
                    while (sys.read(receiver, in.address(), in.size()) > 0) made++;
                    made++;
                }
            }
            return made;
        }
    }
}
