package niolab.epoll;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Pins struct epoll_event: by the ABI, and by a round trip through the kernel on each binding. */
class EpollEventsTest {

    @Test
    void layoutIsPackedTwelveBytesOnX8664AndSixteenElsewhere() {
        assertThat(EpollEvents.PACKED).as("os.arch and JNA agree").isEqualTo(Platform.ARCH.equals("x86-64"));
        if (EpollEvents.PACKED) {
            assertThat(EpollEvents.STRIDE).isEqualTo(12);
            assertThat(EpollEvents.DATA_OFFSET).isEqualTo(4);
        } else {
            assertThat(EpollEvents.STRIDE).isEqualTo(16);
            assertThat(EpollEvents.DATA_OFFSET).isEqualTo(8);
        }
        assertThat(EpollEvents.isPacked("amd64")).isTrue();
        assertThat(EpollEvents.isPacked("aarch64")).isFalse();
    }

    @Test
    void setWritesEventsAtZeroAndDataAtTheDataOffset() {
        try (EpollEvents ev = new EpollEvents(Bindings.jna(), 3)) {
            ev.set(1, Linux.EPOLLIN | Linux.EPOLLET, 0x1122334455667788L);
            Pointer p = ev.pointer(); // read back through JNA, independently of the view that wrote
            assertThat(Pointer.nativeValue(p)).isEqualTo(ev.address());
            assertThat(p.getInt(EpollEvents.STRIDE)).isEqualTo(Linux.EPOLLIN | Linux.EPOLLET);
            assertThat(p.getLong(EpollEvents.STRIDE + EpollEvents.DATA_OFFSET)).isEqualTo(0x1122334455667788L);
            assertThat(ev.events(0)).isZero();
            assertThat(ev.data(2)).isZero();
        }
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void theKernelFillsEventsWithThisStrideAndOffset(String binding) throws Exception {
        Syscalls sys = BindingsUnderTest.open(binding);
        int a = ErrnoException.check(sys, "eventfd", sys.eventfd(0, Linux.EFD_NONBLOCK | Linux.EFD_CLOEXEC));
        int b = ErrnoException.check(sys, "eventfd", sys.eventfd(0, Linux.EFD_NONBLOCK | Linux.EFD_CLOEXEC));
        try (Epoll ep = Epoll.create(sys); EpollEvents events = new EpollEvents(sys, 8);
                NativeBuffer one = NativeBuffer.allocate(sys, 8)) {
            assertThat(ep.add(a, Linux.EPOLLIN | Linux.EPOLLET, 1000L + a)).isZero();
            assertThat(ep.add(b, Linux.EPOLLIN | Linux.EPOLLOUT | Linux.EPOLLET, (7L << 40) | b)).isZero();
            one.view().put(0, (byte) 1); // the 64-bit counter 1, little-endian
            assertThat(sys.write(a, one.address(), 8)).isEqualTo(8);

            int n = sys.epoll_wait(ep.fd(), events.address(), events.capacity(), 5000);
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
            assertThat(maskA & (Linux.EPOLLIN | Linux.EPOLLOUT)).isEqualTo(Linux.EPOLLIN);
            assertThat(seenB).as("all 64 bits of data come back").isEqualTo((7L << 40) | b);
            assertThat(maskB & (Linux.EPOLLIN | Linux.EPOLLOUT)).isEqualTo(Linux.EPOLLOUT);

            // Edge-triggered: nothing changed, so a second wait reports nothing.
            assertThat(sys.epoll_wait(ep.fd(), events.address(), events.capacity(), 0)).isZero();
        } finally {
            sys.close(a);
            sys.close(b);
        }
    }
}
