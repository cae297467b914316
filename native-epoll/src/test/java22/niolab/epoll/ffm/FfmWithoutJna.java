package niolab.epoll.ffm;

import niolab.epoll.Bindings;
import niolab.epoll.Epoll;
import niolab.epoll.EpollEvents;
import niolab.epoll.Errno;
import niolab.epoll.ErrnoException;
import niolab.epoll.Linux;
import niolab.epoll.NativeBuffer;
import niolab.epoll.Sockets;
import niolab.epoll.Syscalls;

/**
 * What an et loop on the FFM binding does, start to end, run by {@link FfmWithoutJnaTest} in a
 * JVM whose class path has no JNA: any JNA class it touched would end it with NoClassDefFoundError.
 */
public final class FfmWithoutJna {
    public static void main(String[] args) throws Exception {
        if (!Epoll.isSupported()) throw new AssertionError("not 64-bit Linux");
        Syscalls sys = Bindings.named("ffm");
        int[] pair = Sockets.loopbackPair(sys);
        try (Epoll epoll = Epoll.create(sys); EpollEvents events = new EpollEvents(sys, 16);
                NativeBuffer buf = NativeBuffer.allocate(sys, 64)) {
            check(Sockets.setFlag(sys, pair[0], Linux.IPPROTO_TCP, Linux.TCP_NODELAY) == 0, "TCP_NODELAY");
            check(epoll.add(pair[1], Linux.EPOLLIN | Linux.EPOLLET, pair[1]) == 0, "epoll_ctl");
            buf.view().put(0, (byte) 'x');
            check(sys.send(pair[0], buf.address(), 1, Linux.MSG_NOSIGNAL) == 1, "send");
            check(sys.epoll_wait(epoll.fd(), events.address(), events.capacity(), 5000) == 1, "epoll_wait");
            check(events.data(0) == pair[1] && (events.events(0) & Linux.EPOLLIN) != 0, "the event");
            check(sys.read(pair[1], buf.address(), 64) == 1 && buf.view().get(0) == 'x', "read");
            check(sys.read(pair[1], buf.address(), 64) == -1 && sys.errno() == Errno.EAGAIN, "EAGAIN");
            try {
                ErrnoException.check(sys, "close", sys.close(-1));
                throw new AssertionError("close(-1) succeeded");
            } catch (ErrnoException expected) {
                check(expected.getMessage().equals("close: EBADF (Bad file descriptor)"), expected.getMessage());
            }
            check(Errno.describe(200, sys).startsWith("errno 200 ("), "strerror");
            check(Sockets.localAddress(sys, pair[0]).getPort() > 0, "getsockname");
        } finally {
            sys.close(pair[0]);
            sys.close(pair[1]);
        }
        System.out.println("ok");
    }

    private static void check(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }
}
