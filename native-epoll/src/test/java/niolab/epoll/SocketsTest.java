package niolab.epoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class SocketsTest {

    @Test
    void sockaddrInIsFamilyPortInNetworkOrderThenTheAddress() throws Exception {
        try (Memory m = SockAddr.of(InetAddress.getByName("127.0.0.1"), 0x1234)) {
            assertThat(m.size()).isEqualTo(16);
            assertThat(m.getShort(0)).isEqualTo((short) LibC.AF_INET);
            assertThat(m.getByteArray(2, 6)).containsExactly(0x12, 0x34, 127, 0, 0, 1);
            assertThat(SockAddr.parse(m)).isEqualTo(new InetSocketAddress("127.0.0.1", 0x1234));
        }
        try (Memory m = SockAddr.of(InetAddress.getByName("::1"), 9988)) {
            assertThat(m.size()).isEqualTo(28);
            assertThat(m.getShort(0)).isEqualTo((short) LibC.AF_INET6);
            assertThat(m.getByte(23)).isEqualTo((byte) 1);
            assertThat(SockAddr.parse(m)).isEqualTo(new InetSocketAddress("::1", 9988));
        }
    }

    @Test
    void listenOnPortZeroAcceptsAndReportsTheRealPort() throws Exception {
        int fd = Sockets.listen(new InetSocketAddress("127.0.0.1", 0), 16, false);
        try {
            InetSocketAddress bound = Sockets.localAddress(fd);
            assertThat(bound.getAddress().getHostAddress()).isEqualTo("127.0.0.1");
            assertThat(bound.getPort()).isPositive();

            assertThat(LibC.accept4(fd, null, null, LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC)).isEqualTo(-1);
            assertThat(LibC.errno()).as("nothing to accept yet").isEqualTo(Errno.EAGAIN);

            try (Socket client = new Socket(bound.getAddress(), bound.getPort()); Memory buf = new Memory(16)) {
                int conn = LibC.accept4(fd, null, null, LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC);
                assertThat(conn).isNotNegative();
                assertThat(Sockets.setFlag(conn, LibC.IPPROTO_TCP, LibC.TCP_NODELAY)).isZero();
                client.getOutputStream().write(new byte[] {1, 2, 3});
                client.setSoTimeout(10_000);
                long addr = Pointer.nativeValue(buf);
                long n;
                do {
                    n = LibC.read(conn, addr, 16);
                } while (n < 0 && LibC.errno() == Errno.EAGAIN); // non-blocking: the bytes may not be there yet
                assertThat(n).isEqualTo(3);
                assertThat(LibC.send(conn, addr, 3, LibC.MSG_NOSIGNAL)).isEqualTo(3);
                assertThat(client.getInputStream().readNBytes(3)).containsExactly(1, 2, 3);
                LibC.close(conn);
            }
        } finally {
            LibC.close(fd);
        }
    }

    @Test
    void aPortInUseIsAnErrnoExceptionNamingBind() throws Exception {
        int fd = Sockets.listen(new InetSocketAddress("127.0.0.1", 0), 16, false);
        try {
            int port = Sockets.localAddress(fd).getPort();
            ErrnoException e = assertThrows(ErrnoException.class,
                    () -> Sockets.listen(new InetSocketAddress("127.0.0.1", port), 16, false));
            assertThat(e.errno()).isEqualTo(Errno.EADDRINUSE);
            assertThat(e).hasMessage("bind: EADDRINUSE (Address already in use)");
        } finally {
            LibC.close(fd);
        }
    }

    @Test
    void ipv6LoopbackWorksWhereTheMachineHasIt() throws Exception {
        int fd;
        try {
            fd = Sockets.listen(new InetSocketAddress("::1", 0), 16, false);
        } catch (ErrnoException e) {
            assumeTrue(false, "no IPv6 loopback here: " + e.getMessage());
            return;
        }
        try {
            InetSocketAddress bound = Sockets.localAddress(fd);
            assertThat(bound.getAddress()).isEqualTo(InetAddress.getByName("::1"));
            try (Socket client = new Socket(bound.getAddress(), bound.getPort())) {
                assertThat(client.isConnected()).isTrue();
            }
        } finally {
            LibC.close(fd);
        }
    }

    @Test
    void supportedOnlyOn64BitLinux() {
        assertThat(Epoll.isSupported("Linux", 8)).isTrue();
        assertThat(Epoll.isSupported("Mac OS X", 8)).isFalse();
        assertThat(Epoll.isSupported("Linux", 4)).isFalse();
    }
}
