package niolab.uring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import niolab.testkit.Capability;

/**
 * An echo loop on the ring allocates nothing per operation: 20,000 recv and send completions
 * (after a warm-up that lets the JIT compile the loop) cost less than one byte each on the
 * loop's thread: an object per operation (16 bytes at least) fails it. The peer is a blocking
 * Java socket on its own thread.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RingAllocationTest {
    private static final int WARMUP_ROUND_TRIPS = 5_000;
    private static final int MEASURED_ROUND_TRIPS = 10_000;
    private static final int MESSAGE = 32;
    private static final int ACCEPT = 1;
    private static final int RECV = 2;
    private static final int SEND = 3;

    @BeforeAll
    static void ioUringIsUsable() {
        Capability.IO_URING.assume();
    }

    @ParameterizedTest
    @EnumSource(RecvMode.class)
    void recvAndSendCompletionsAllocateNothing(RecvMode mode) throws Exception {
        UringCapabilities caps = UringSupport.capabilities();
        Capability.IO_URING.assume(mode.unsupportedBy(caps) == null, mode.unsupportedBy(caps));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int roundTrips = WARMUP_ROUND_TRIPS + MEASURED_ROUND_TRIPS;
        AtomicReference<Throwable> peerFailure = new AtomicReference<>();

        try (Loopback loopback = new Loopback(); IoUring ring = IoUring.open(64, 0, caps.setupFlags());
                Socket client = loopback.connect()) {
            CompletionLog log = new CompletionLog(ring);
            ring.sq().prepareAccept(loopback.listenFd, ACCEPT);
            int fd = log.await(ACCEPT).res();
            assertThat(fd).isGreaterThanOrEqualTo(0);
            Thread peer = new Thread(() -> echoPeer(client, roundTrips, peerFailure), "echo-peer");
            peer.setDaemon(true);

            try (Receiver receiver = new Receiver(mode, ring, fd, RECV, 8, 64)) {
                EchoLoop loop = new EchoLoop(ring, receiver, fd);
                receiver.arm();
                peer.start();
                loop.run(2L * WARMUP_ROUND_TRIPS);
                long before = threads.getCurrentThreadAllocatedBytes();
                loop.run(2L * roundTrips);
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;

                assertThat(loop.failure).as("completion error (res, user_data)").isEqualTo(0);
                assertThat(loop.ops).isEqualTo(2L * roundTrips);
                double perOp = (double) allocated / (2L * MEASURED_ROUND_TRIPS);
                System.out.printf("%s: %d bytes over %d completions (%.4f per op), %d io_uring_enter calls%n",
                        mode, allocated, 2L * MEASURED_ROUND_TRIPS, perOp, ring.enterCalls());
                assertThat(perOp).as("bytes allocated per recv/send completion").isLessThan(1.0);
            }
            peer.join(10_000);
            assertThat(peerFailure.get()).as("the peer got every echo back, byte for byte").isNull();
        }
    }

    /** The server side: echo each recv with a send from the same buffer, then give the buffer back. */
    private static final class EchoLoop implements CompletionHandler {
        private final IoUring ring;
        private final Receiver receiver;
        private final int fd;
        private long ops;
        private long failure;
        private int pendingFlags;

        EchoLoop(IoUring ring, Receiver receiver, int fd) {
            this.ring = ring;
            this.receiver = receiver;
            this.fd = fd;
        }

        void run(long untilOps) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (ops < untilOps && failure == 0 && System.nanoTime() < deadline) {
                ring.submitAndWait(1, 1_000_000_000L);
                ring.cq().forEach(this);
            }
        }

        @Override
        public void onCompletion(long userData, int res, int flags) {
            if (res <= 0) {
                failure = (long) res << 32 | userData;
                return;
            }
            ops++;
            if (userData == RECV) {
                pendingFlags = flags;
                ring.sq().prepareSend(fd, receiver.address(flags), res, SEND);
            } else if (userData == SEND) {
                receiver.done(pendingFlags);
            }
        }
    }

    private static void echoPeer(Socket client, int roundTrips, AtomicReference<Throwable> failure) {
        byte[] message = new byte[MESSAGE];
        byte[] echo = new byte[MESSAGE];
        try {
            OutputStream out = client.getOutputStream();
            InputStream in = client.getInputStream();
            for (int i = 0; i < roundTrips; i++) {
                Arrays.fill(message, (byte) i);
                out.write(message);
                if (in.readNBytes(echo, 0, MESSAGE) != MESSAGE || !Arrays.equals(message, echo)) {
                    throw new AssertionError("round trip " + i + " came back wrong");
                }
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }
}
