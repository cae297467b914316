package niolab.uring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import niolab.uring.CompletionLog.Cqe;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import niolab.testkit.Capability;

/**
 * The two signals a server needs from the kernel to bound what it holds and to know when a
 * burst is over: a multishot recv that ends by itself after a byte limit, and an accept
 * completion that says whether more connections wait in the backlog.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecvByteLimitTest {
    private static final int GROUP = 3;
    private static final int BUFFER_SIZE = 100;

    @BeforeAll
    static void ioUringIsUsable() {
        Capability.IO_URING.assume();
    }

    @Test
    void aMultishotRecvWithAByteLimitEndsOnceItIsReachedAndLeavesTheRestInTheSocket() throws Exception {
        UringCapabilities caps = UringSupport.capabilities();
        Capability.IO_URING.assume(caps.recvByteLimit() && caps.bufferRing(), "no multishot recv byte limit on this kernel");
        try (Loopback loopback = new Loopback(); IoUring ring = IoUring.open(16, 0, caps.setupFlags())) {
            CompletionLog log = new CompletionLog(ring);
            long acceptId = UserData.of(1, 0, loopback.listenFd);
            ring.sq().prepareAccept(loopback.listenFd, acceptId);
            try (Socket client = loopback.connect(); BufferRing buffers = BufferRing.register(ring, GROUP, 8, BUFFER_SIZE)) {
                int fd = log.await(acceptId).res();
                assertThat(fd).isNotNegative();
                client.getOutputStream().write(new byte[350]);
                Thread.sleep(200); // all 350 bytes in the socket before the recv starts

                long recvId = UserData.of(2, 0, fd);
                ring.sq().prepareRecvMultishot(fd, GROUP, 150, recvId);
                Cqe first = log.await(recvId);
                Cqe second = log.await(recvId);
                assertThat(first.res()).as("one buffer's worth").isEqualTo(BUFFER_SIZE);
                assertThat(first.more()).as("100 of 150 bytes: still armed").isTrue();
                assertThat(second.res()).isEqualTo(BUFFER_SIZE);
                assertThat(second.more()).as("200 bytes, past the limit: ended").isFalse();

                long closeId = UserData.of(3, 0, fd);
                ring.sq().prepareClose(fd, closeId);
                assertThat(log.await(closeId).res()).isZero();
                assertThat(log.unclaimed()).as("nothing received after the limit").isEmpty();
            }
        }
    }

    @Test
    void anAcceptCompletionSaysWhetherTheBacklogHoldsMore() throws Exception {
        UringCapabilities caps = UringSupport.capabilities();
        try (Loopback loopback = new Loopback(); IoUring ring = IoUring.open(16, 0, caps.setupFlags());
             Socket first = loopback.connect(); Socket second = loopback.connect()) {
            CompletionLog log = new CompletionLog(ring);
            long acceptId = UserData.of(1, 0, loopback.listenFd);
            Cqe[] accepted = new Cqe[2];
            for (int i = 0; i < 2; i++) {
                ring.sq().prepareAccept(loopback.listenFd, acceptId);
                accepted[i] = log.await(acceptId);
                assertThat(accepted[i].res()).isNotNegative();
                ring.sq().prepareClose(accepted[i].res(), UserData.of(3, 0, i));
            }
            assertThat(CompletionQueue.socketNonEmpty(accepted[0].flags())).as("one more waits").isTrue();
            assertThat(CompletionQueue.socketNonEmpty(accepted[1].flags())).as("the backlog is drained").isFalse();
            InputStream in = first.getInputStream();
            ring.submit();
            assertThat(in.read()).isEqualTo(-1);
        }
    }
}
