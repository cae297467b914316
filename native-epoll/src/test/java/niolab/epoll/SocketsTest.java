package niolab.epoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import niolab.testkit.Capability;

@Timeout(30)
class SocketsTest {

    @Test
    void sockaddrInIsFamilyPortInNetworkOrderThenTheAddress() throws Exception {
        ByteBuffer b = ByteBuffer.allocate(SockAddr.MAX_SIZE).order(ByteOrder.nativeOrder());
        assertThat(SockAddr.put(b, InetAddress.getByName("127.0.0.1"), 0x1234)).isEqualTo(16);
        assertThat(b.getShort(0)).isEqualTo((short) Linux.AF_INET);
        assertThat(bytes(b, 2, 6)).containsExactly(0x12, 0x34, 127, 0, 0, 1);
        assertThat(SockAddr.parse(b)).isEqualTo(new InetSocketAddress("127.0.0.1", 0x1234));

        assertThat(SockAddr.put(b, InetAddress.getByName("::1"), 9988)).isEqualTo(28);
        assertThat(b.getShort(0)).isEqualTo((short) Linux.AF_INET6);
        assertThat(b.get(23)).isEqualTo((byte) 1);
        assertThat(SockAddr.parse(b)).isEqualTo(new InetSocketAddress("::1", 9988));

        assertThat(SockAddr.put(b, InetAddress.getByName("10.0.0.2"), 80)).as("v4 over v6 bytes").isEqualTo(16);
        assertThat(bytes(b, 8, 8)).as("sin_zero").containsOnly(0);
    }

    private static byte[] bytes(ByteBuffer b, int from, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) out[i] = b.get(from + i);
        return out;
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void listenOnPortZeroAcceptsAndReportsTheRealPort(String binding) throws Exception {
        Syscalls sys = BindingsUnderTest.open(binding);
        int fd = Sockets.listen(sys, new InetSocketAddress("127.0.0.1", 0), 16, false);
        try {
            InetSocketAddress bound = Sockets.localAddress(sys, fd);
            assertThat(bound.getAddress().getHostAddress()).isEqualTo("127.0.0.1");
            assertThat(bound.getPort()).isPositive();

            assertThat(sys.accept4(fd, Linux.SOCK_NONBLOCK | Linux.SOCK_CLOEXEC)).isEqualTo(-1);
            assertThat(sys.errno()).as("nothing to accept yet").isEqualTo(Errno.EAGAIN);

            try (Socket client = new Socket(bound.getAddress(), bound.getPort());
                    NativeBuffer buf = NativeBuffer.allocate(sys, 16)) {
                int conn = sys.accept4(fd, Linux.SOCK_NONBLOCK | Linux.SOCK_CLOEXEC);
                assertThat(conn).isNotNegative();
                assertThat(Sockets.setFlag(sys, conn, Linux.IPPROTO_TCP, Linux.TCP_NODELAY)).isZero();
                client.getOutputStream().write(new byte[] {1, 2, 3});
                client.setSoTimeout(10_000);
                long n;
                do {
                    n = sys.read(conn, buf.address(), 16);
                } while (n < 0 && sys.errno() == Errno.EAGAIN); // non-blocking: the bytes may not be there yet
                assertThat(n).isEqualTo(3);
                assertThat(sys.send(conn, buf.address(), 3, Linux.MSG_NOSIGNAL)).isEqualTo(3);
                assertThat(client.getInputStream().readNBytes(3)).containsExactly(1, 2, 3);
                sys.close(conn);
            }
        } finally {
            sys.close(fd);
        }
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void aLoopbackPairCarriesBytesBothWaysAndReadsEagainWhenEmpty(String binding) throws Exception {
        Syscalls sys = BindingsUnderTest.open(binding);
        int[] pair = Sockets.loopbackPair(sys);
        try (NativeBuffer buf = NativeBuffer.allocate(sys, 16)) {
            assertThat(sys.read(pair[1], buf.address(), 16)).isEqualTo(-1);
            assertThat(sys.errno()).isEqualTo(Errno.EAGAIN);
            buf.view().put(0, (byte) 42);
            assertThat(sys.send(pair[0], buf.address(), 1, Linux.MSG_NOSIGNAL)).isEqualTo(1);
            buf.view().put(0, (byte) 0);
            long n;
            do {
                n = sys.read(pair[1], buf.address(), 16);
            } while (n < 0 && sys.errno() == Errno.EAGAIN);
            assertThat(n).isEqualTo(1);
            assertThat(buf.view().get(0)).isEqualTo((byte) 42);
        } finally {
            sys.close(pair[0]);
            sys.close(pair[1]);
        }
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void aPortInUseIsAnErrnoExceptionNamingBind(String binding) throws Exception {
        Syscalls sys = BindingsUnderTest.open(binding);
        int fd = Sockets.listen(sys, new InetSocketAddress("127.0.0.1", 0), 16, false);
        try {
            int port = Sockets.localAddress(sys, fd).getPort();
            ErrnoException e = assertThrows(ErrnoException.class,
                    () -> Sockets.listen(sys, new InetSocketAddress("127.0.0.1", port), 16, false));
            assertThat(e.errno()).isEqualTo(Errno.EADDRINUSE);
            assertThat(e).hasMessage("bind: EADDRINUSE (Address already in use)");
        } finally {
            sys.close(fd);
        }
    }

    @ParameterizedTest
    @MethodSource("niolab.epoll.BindingsUnderTest#names")
    void ipv6LoopbackWorksWhereTheMachineHasIt(String binding) throws Exception {
        Syscalls sys = BindingsUnderTest.open(binding);
        int fd;
        try {
            fd = Sockets.listen(sys, new InetSocketAddress("::1", 0), 16, false);
        } catch (ErrnoException e) {
            Capability.IPV6_LOOPBACK.assume(false, "no IPv6 loopback here: " + e.getMessage());
            return;
        }
        try {
            InetSocketAddress bound = Sockets.localAddress(sys, fd);
            assertThat(bound.getAddress()).isEqualTo(InetAddress.getByName("::1"));
            try (Socket client = new Socket(bound.getAddress(), bound.getPort())) {
                assertThat(client.isConnected()).isTrue();
            }
        } finally {
            sys.close(fd);
        }
    }

    @Test
    void supportedOnlyOn64BitLinux() {
        assertThat(Epoll.isSupported("Linux", 8)).isTrue();
        assertThat(Epoll.isSupported("Mac OS X", 8)).isFalse();
        assertThat(Epoll.isSupported("Linux", 4)).isFalse();
        assertThat(Epoll.isSupported()).isTrue(); // this lab runs its tests on 64-bit Linux
    }
}
