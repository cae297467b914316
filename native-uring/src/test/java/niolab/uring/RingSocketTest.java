package niolab.uring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import niolab.epoll.Errno;
import niolab.uring.CompletionLog.Cqe;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import niolab.testkit.Capability;

/**
 * A real TCP connection on 127.0.0.1 served through the ring, in each receive mode: accept,
 * recv, send (an echo, twelve times, so that four provided buffers must be given back to keep
 * going), the peer's half-close seen as a recv of 0, close; and a second accept, which a
 * multishot accept (the multishot modes) delivers without a new SQE.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RingSocketTest {
    private static final int ACCEPT = 1;
    private static final int RECV = 2;
    private static final int SEND = 3;
    private static final int CLOSE = 4;
    private static final int CANCEL = 5;
    private static final int BUFFERS = 4;
    private static final int BUFFER_SIZE = 16;
    private static final int MESSAGES = 12;

    @BeforeAll
    static void ioUringIsUsable() {
        Capability.IO_URING.assume();
    }

    @ParameterizedTest
    @EnumSource(RecvMode.class)
    void acceptRecvSendCloseThroughTheRing(RecvMode mode) throws Exception {
        UringCapabilities caps = UringSupport.capabilities();
        Capability.IO_URING.assume(mode.unsupportedBy(caps) == null, mode.unsupportedBy(caps));
        boolean multishot = mode.multishot;
        try (Loopback loopback = new Loopback(); IoUring ring = IoUring.open(16, 0, caps.setupFlags())) {
            CompletionLog log = new CompletionLog(ring);
            SubmissionQueue sq = ring.sq();
            long acceptId = UserData.of(ACCEPT, 0, loopback.listenFd);
            if (multishot) sq.prepareAcceptMultishot(loopback.listenFd, acceptId);
            else sq.prepareAccept(loopback.listenFd, acceptId);

            try (Socket client = loopback.connect()) {
                Cqe accepted = log.await(acceptId);
                assertThat(accepted.res()).as("accepted fd").isGreaterThanOrEqualTo(0);
                assertThat(accepted.more()).as("multishot accept stays armed").isEqualTo(multishot);
                int fd = accepted.res();
                OutputStream out = client.getOutputStream();
                InputStream in = client.getInputStream();
                long recvId = UserData.of(RECV, 0, fd);
                long sendId = UserData.of(SEND, 0, fd);

                try (Receiver receiver = new Receiver(mode, ring, fd, recvId, BUFFERS, BUFFER_SIZE)) {
                    receiver.arm();
                    for (int i = 0; i < MESSAGES; i++) {
                        byte[] message = String.format("message-%02d", i).getBytes(StandardCharsets.US_ASCII);
                        out.write(message);

                        Cqe received = log.await(recvId);
                        assertThat(received.res()).as("recv %d", i).isEqualTo(message.length);
                        assertThat(CompletionQueue.hasBuffer(received.flags())).as("a provided buffer").isEqualTo(mode.providedBuffers);
                        assertThat(received.more()).as("multishot recv stays armed").isEqualTo(multishot);
                        long data = receiver.address(received.flags());
                        assertThat(bytesAt(data, received.res())).isEqualTo(message);

                        sq.prepareSend(fd, data, received.res(), sendId);
                        assertThat(log.await(sendId).res()).as("sent").isEqualTo(message.length);
                        receiver.done(received.flags());
                        assertThat(in.readNBytes(message.length)).as("echo %d", i).isEqualTo(message);
                    }

                    client.shutdownOutput();
                    Cqe eof = log.await(recvId);
                    assertThat(eof.res()).as("recv after the peer's half-close").isZero();
                    assertThat(eof.more()).as("EOF ends a multishot recv").isFalse();
                }

                long closeId = UserData.of(CLOSE, 0, fd);
                sq.prepareClose(fd, closeId);
                assertThat(log.await(closeId).res()).isZero();
                assertThat(in.read()).as("the peer sees the close").isEqualTo(-1);
            }

            if (!multishot) sq.prepareAccept(loopback.listenFd, acceptId);
            try (Socket second = loopback.connect()) {
                Cqe accepted = log.await(acceptId);
                assertThat(accepted.res()).as("second accepted fd").isGreaterThanOrEqualTo(0);
                long closeId = UserData.of(CLOSE, 0, accepted.res());
                sq.prepareClose(accepted.res(), closeId);
                assertThat(log.await(closeId).res()).isZero();
            }

            if (multishot) {
                long cancelId = UserData.of(CANCEL, 0, loopback.listenFd);
                sq.prepareCancel(acceptId, cancelId);
                assertThat(log.await(cancelId).res()).as("one request cancelled").isZero();
                Cqe cancelled = log.await(acceptId);
                assertThat(cancelled.res()).isEqualTo(-Errno.ECANCELED);
                assertThat(cancelled.more()).as("a cancelled multishot ends").isFalse();
            }
            assertThat(log.unclaimed()).as("no other completion (a failed buffer give-back would show here)").isEmpty();
        }
    }

    private static byte[] bytesAt(long address, int length) {
        return MemorySegment.ofAddress(address).reinterpret(length).toArray(ValueLayout.JAVA_BYTE);
    }
}
