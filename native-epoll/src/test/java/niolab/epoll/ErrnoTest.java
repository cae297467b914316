package niolab.epoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

class ErrnoTest {

    @Test
    void namesAndMessagesOfTheErrnosTheServerHandles() {
        assertThat(Errno.describe(Errno.EMFILE)).isEqualTo("EMFILE (Too many open files)");
        assertThat(Errno.describe(Errno.ENFILE)).isEqualTo("ENFILE (Too many open files in system)");
        assertThat(Errno.describe(Errno.EAGAIN)).isEqualTo("EAGAIN (Resource temporarily unavailable)");
        assertThat(Errno.describe(Errno.ECONNRESET)).isEqualTo("ECONNRESET (Connection reset by peer)");
        assertThat(Errno.describe(Errno.EPIPE)).isEqualTo("EPIPE (Broken pipe)");
        assertThat(Errno.describe(Errno.EADDRINUSE)).isEqualTo("EADDRINUSE (Address already in use)");
        assertThat(Errno.name(Errno.EINTR)).isEqualTo("EINTR");
    }

    @Test
    void anUnnamedErrnoFallsBackToStrerror() {
        assertThat(Errno.name(200)).isEqualTo("errno");
        assertThat(Errno.describe(200)).startsWith("errno 200 (").endsWith(")");
    }

    @Test
    void exceptionMessageNamesTheCallAndTheErrno() {
        ErrnoException e = new ErrnoException("accept4", Errno.EMFILE);
        assertThat(e).hasMessage("accept4: EMFILE (Too many open files)");
        assertThat(e.call()).isEqualTo("accept4");
        assertThat(e.errno()).isEqualTo(Errno.EMFILE);
    }

    @Test
    void everyNamedNumberMatchesThisLibcsMessageForIt() throws Exception {
        // strerror speaks the process locale: compare only where it is English.
        assumeThat(LibC.strerror(Errno.EPERM)).isEqualTo("Operation not permitted");
        int checked = 0;
        for (Field f : Errno.class.getFields()) {
            if (f.getType() == int.class && Modifier.isStatic(f.getModifiers())) {
                int errno = f.getInt(null);
                assertThat(Errno.name(errno)).as(f.getName()).isEqualTo(f.getName());
                assertThat(Errno.message(errno)).as(f.getName()).isEqualTo(LibC.strerror(errno));
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(20);
    }

    @Test
    void getLastErrorReadsErrnoOfTheFailedDirectMappedCall() throws Exception {
        assertThat(LibC.close(-1)).isEqualTo(-1);
        assertThat(LibC.errno()).isEqualTo(Errno.EBADF);

        int efd = ErrnoException.check("eventfd", LibC.eventfd(0, LibC.EFD_NONBLOCK | LibC.EFD_CLOEXEC));
        try (Memory buf = new Memory(8)) {
            assertThat(LibC.read(efd, Pointer.nativeValue(buf), 8)).isEqualTo(-1);
            // JNA saved errno per thread when the call returned: Java work in between cannot change it.
            byte[][] garbage = new byte[1000][];
            for (int i = 0; i < garbage.length; i++) garbage[i] = new byte[1024];
            assertThat(LibC.errno()).isEqualTo(Errno.EAGAIN);
        } finally {
            LibC.close(efd);
        }
    }

    @Test
    void checkThrowsWithTheErrnoOfTheCallItWraps() {
        ErrnoException e = org.junit.jupiter.api.Assertions.assertThrows(ErrnoException.class,
                () -> ErrnoException.check("close", LibC.close(-1)));
        assertThat(e).hasMessage("close: EBADF (Bad file descriptor)");
    }
}
