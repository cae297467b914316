package niolab.epoll;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Memory;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import org.junit.jupiter.api.Test;

/** Pins struct epoll_event: by the ABI, and by a round trip through the kernel. */
class EpollEventsTest {

    @Test
    void layoutIsPackedTwelveBytesOnX8664AndSixteenElsewhere() {
        if (Platform.ARCH.equals("x86-64")) {
            assertThat(EpollEvents.STRIDE).isEqualTo(12);
            assertThat(EpollEvents.DATA_OFFSET).isEqualTo(4);
        } else {
            assertThat(EpollEvents.STRIDE).isEqualTo(16);
            assertThat(EpollEvents.DATA_OFFSET).isEqualTo(8);
        }
    }

    @Test
    void setWritesEventsAtZeroAndDataAtTheDataOffset() {
        try (EpollEvents ev = new EpollEvents(3)) {
            ev.set(1, LibC.EPOLLIN | LibC.EPOLLET, 0x1122334455667788L);
            Pointer p = ev.pointer();
            assertThat(p.getInt(EpollEvents.STRIDE)).isEqualTo(LibC.EPOLLIN | LibC.EPOLLET);
            assertThat(p.getLong(EpollEvents.STRIDE + EpollEvents.DATA_OFFSET)).isEqualTo(0x1122334455667788L);
            assertThat(ev.events(0)).isZero();
            assertThat(ev.data(2)).isZero();
        }
    }

    @Test
    void theKernelFillsEventsWithThisStrideAndOffset() throws Exception {
        int a = ErrnoException.check("eventfd", LibC.eventfd(0, LibC.EFD_NONBLOCK | LibC.EFD_CLOEXEC));
        int b = ErrnoException.check("eventfd", LibC.eventfd(0, LibC.EFD_NONBLOCK | LibC.EFD_CLOEXEC));
        try (Epoll ep = Epoll.create(); EpollEvents events = new EpollEvents(8); Memory one = new Memory(8)) {
            assertThat(ep.add(a, LibC.EPOLLIN | LibC.EPOLLET, 1000L + a)).isZero();
            assertThat(ep.add(b, LibC.EPOLLIN | LibC.EPOLLOUT | LibC.EPOLLET, (7L << 40) | b)).isZero();
            one.setLong(0, 1);
            assertThat(LibC.write(a, Pointer.nativeValue(one), 8)).isEqualTo(8);

            int n = LibC.epoll_wait(ep.fd(), events.pointer(), events.capacity(), 5000);
            assertThat(n).isEqualTo(2);
            long seenA = -1;
            long seenB = -1;
            int maskA = 0;
            int maskB = 0;
            for (int i = 0; i < n; i++) {
                if (events.data(i) == 1000L + a) {
                    seenA = events.data(i);
                    maskA = events.events(i);
                } else {
                    seenB = events.data(i);
                    maskB = events.events(i);
                }
            }
            assertThat(seenA).isEqualTo(1000L + a);
            assertThat(maskA & (LibC.EPOLLIN | LibC.EPOLLOUT)).isEqualTo(LibC.EPOLLIN);
            assertThat(seenB).as("all 64 bits of data come back").isEqualTo((7L << 40) | b);
            assertThat(maskB & (LibC.EPOLLIN | LibC.EPOLLOUT)).isEqualTo(LibC.EPOLLOUT);

            // Edge-triggered: nothing changed, so a second wait reports nothing.
            assertThat(LibC.epoll_wait(ep.fd(), events.pointer(), events.capacity(), 0)).isZero();
        } finally {
            LibC.close(a);
            LibC.close(b);
        }
    }
}
