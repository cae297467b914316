package niolab.epoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import niolab.testkit.Capability;

class ErrnoTest {

    @Test
    void namesAndMessagesOfTheErrnosTheServerHandles() {
        assertThat(Errno.describe(Errno.EMFILE, Bindings.jna())).isEqualTo("EMFILE (Too many open files)");
        assertThat(Errno.describe(Errno.ENFILE, Bindings.jna())).isEqualTo("ENFILE (Too many open files in system)");
        assertThat(Errno.describe(Errno.EAGAIN, Bindings.jna())).isEqualTo("EAGAIN (Resource temporarily unavailable)");
        assertThat(Errno.describe(Errno.ECONNRESET, Bindings.jna())).isEqualTo("ECONNRESET (Connection reset by peer)");
        assertThat(Errno.describe(Errno.EPIPE, Bindings.jna())).isEqualTo("EPIPE (Broken pipe)");
        assertThat(Errno.describe(Errno.EADDRINUSE, Bindings.jna())).isEqualTo("EADDRINUSE (Address already in use)");
        assertThat(Errno.name(Errno.EINTR)).isEqualTo("EINTR");
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void anUnnamedErrnoFallsBackToTheBindingsStrerror(String binding) {
        Syscalls sys = BindingsUnderTest.open(binding);
        assertThat(Errno.name(200)).isEqualTo("errno");
        assertThat(Errno.describe(200, sys)).isEqualTo("errno 200 (" + sys.strerror(200) + ")");
        assertThat(sys.strerror(200)).isNotBlank();
    }

    @Test
    void exceptionMessageNamesTheCallAndTheErrno() {
        ErrnoException e = new ErrnoException("accept4", Errno.EMFILE);
        assertThat(e).hasMessage("accept4: EMFILE (Too many open files)");
        assertThat(e.call()).isEqualTo("accept4");
        assertThat(e.errno()).isEqualTo(Errno.EMFILE);
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void everyNamedNumberMatchesThisLibcsMessageForIt(String binding) throws Exception {
        Syscalls sys = BindingsUnderTest.open(binding);
        // strerror speaks the process locale: compare only where it is English.
        Capability.ENGLISH_LIBC.assume(sys.strerror(Errno.EPERM).equals("Operation not permitted"), "libc speaks another language here");
        int checked = 0;
        for (Field f : Errno.class.getFields()) {
            if (f.getType() == int.class && Modifier.isStatic(f.getModifiers())) {
                int errno = f.getInt(null);
                assertThat(Errno.name(errno)).as(f.getName()).isEqualTo(f.getName());
                assertThat(Errno.message(errno, sys)).as(f.getName()).isEqualTo(sys.strerror(errno));
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(20);
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void errnoIsThatOfTheLastFailedCall(String binding) throws Exception {
        Syscalls sys = BindingsUnderTest.open(binding);
        assertThat(sys.close(-1)).isEqualTo(-1);
        assertThat(sys.errno()).isEqualTo(Errno.EBADF);

        int efd = ErrnoException.check(sys, "eventfd", sys.eventfd(0, Linux.EFD_NONBLOCK | Linux.EFD_CLOEXEC));
        try (NativeBuffer buf = NativeBuffer.allocate(sys, 8)) {
            assertThat(sys.read(efd, buf.address(), 8)).isEqualTo(-1);
            // Saved when the call returned: Java work in between (a GC, say) cannot change it.
            byte[][] garbage = new byte[1000][];
            for (int i = 0; i < garbage.length; i++) garbage[i] = new byte[1024];
            assertThat(sys.errno()).isEqualTo(Errno.EAGAIN);
        } finally {
            sys.close(efd);
        }
    }

    /**
     * As a loop runs: set up on one thread, waiting and reading on another, woken from a third.
     * Each thread's failures leave the others' errno alone, before and after the loop's first wait.
     */
    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    @Timeout(10)
    void errnoIsPerThreadForTheLoopAndForTheOthers(String binding) throws Exception {
        Syscalls sys = BindingsUnderTest.open(binding);
        int efd = ErrnoException.check(sys, "eventfd", sys.eventfd(0, Linux.EFD_NONBLOCK | Linux.EFD_CLOEXEC));
        try (Epoll epoll = Epoll.create(sys); EpollEvents events = new EpollEvents(sys, 4);
                NativeBuffer buf = NativeBuffer.allocate(sys, 8)) {
            AtomicInteger loopErrno = new AtomicInteger();
            CountDownLatch loopFailed = new CountDownLatch(1);
            CountDownLatch othersFailed = new CountDownLatch(1);
            Thread loop = new Thread(() -> {
                try {
                    sys.epoll_wait(epoll.fd(), events.address(), events.capacity(), 0);
                    sys.read(efd, buf.address(), 8); // EAGAIN: the counter is 0
                    loopFailed.countDown();
                    othersFailed.await();
                    loopErrno.set(sys.errno());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "loop");
            loop.start();
            loopFailed.await();
            assertThat(sys.close(-1)).isEqualTo(-1); // the set-up thread, after the loop's failure
            Thread waker = new Thread(() -> sys.shutdown(-1, Linux.SHUT_RDWR), "waker");
            waker.start();
            waker.join();
            othersFailed.countDown();
            loop.join();

            assertThat(loopErrno.get()).as("the loop's errno").isEqualTo(Errno.EAGAIN);
            assertThat(sys.errno()).as("the set-up thread's errno").isEqualTo(Errno.EBADF);
        } finally {
            sys.close(efd);
        }
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void checkThrowsWithTheErrnoOfTheCallItWraps(String binding) {
        Syscalls sys = BindingsUnderTest.open(binding);
        ErrnoException e = assertThrows(ErrnoException.class, () -> ErrnoException.check(sys, "close", sys.close(-1)));
        assertThat(e).hasMessage("close: EBADF (Bad file descriptor)");
        assertThat(e.errno()).isEqualTo(Errno.EBADF);
    }
}
