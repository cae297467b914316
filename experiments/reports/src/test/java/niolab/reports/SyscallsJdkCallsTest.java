package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * exp-syscalls' attribution of a short connection's syscalls to the calls that make them: the
 * JDK's accept and configureBlocking told apart by their fcntl pattern, close's tear-down found
 * wherever the Selector does it.
 */
class SyscallsJdkCallsTest {
    private static final String LT_TRACE = String.join("\n",
            "accept(7, {sa_family=AF_INET}, [28 => 16]) = 11",
            "fcntl(11, F_GETFL)                = 0x2 (flags O_RDWR)",
            "getsockname(11, {sa_family=AF_INET}, [28 => 16]) = 0",
            "getsockname(11, {sa_family=AF_INET}, [28 => 16]) = 0",
            "fcntl(11, F_GETFL)                = 0x2 (flags O_RDWR)",
            "fcntl(11, F_SETFL, O_RDWR|O_NONBLOCK) = 0",
            "setsockopt(11, SOL_TCP, TCP_NODELAY, [1], 4) = 0",
            "accept(7, 0x7f905b7fda50, [28])   = -1 EAGAIN (Resource temporarily unavailable)",
            "epoll_ctl(5, EPOLL_CTL_ADD, 11, {events=EPOLLIN}) = 0",
            "epoll_ctl(5, EPOLL_CTL_DEL, 8, 0x7f905b7fddc4) = 0",
            "close(8)                          = 0",
            "epoll_wait(5, [{events=EPOLLIN}], 1024, -1) = 1",
            "read(11, \"...\", 65536) = 64",
            "write(11, \"...\", 64) = 64",
            "getsockopt(11, SOL_SOCKET, SO_LINGER, {l_onoff=0, l_linger=0}, [8]) = 0",
            "shutdown(11, SHUT_WR)             = 0");

    @Test
    void eachTraceLineGoesToTheCallThatMakesIt() {
        List<String> calls = new ArrayList<>();
        for (String[] f : SyscallsExperiment.families(LT_TRACE)) calls.add(f[0] + ":" + f[1]);
        assertThat(calls).containsExactly("accept:accept", "fcntl:accept", "getsockname:accept", "getsockname:accept",
                "fcntl:configureBlocking", "fcntl:configureBlocking", "setsockopt:setOption", "accept:accept", "epoll_ctl:register",
                "epoll_ctl:close", "close:close", "epoll_wait:select", "read:read and write", "write:read and write",
                "getsockopt:close", "shutdown:close");
    }

    @Test
    void etsOwnCallsUseTheSameNames() {
        List<String> calls = new ArrayList<>();
        for (String[] f : SyscallsExperiment.families("accept4(8, NULL, NULL, SOCK_CLOEXEC|SOCK_NONBLOCK) = 12\n"
                + "sendto(12, \"...\", 64, MSG_NOSIGNAL, NULL, 0) = 64\nclose(12) = 0")) {
            calls.add(f[0] + ":" + f[1]);
        }
        assertThat(calls).containsExactly("accept4:accept", "sendto:read and write", "close:close");
    }
}
