package niolab.server.backend;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import niolab.epoll.Errno;
import niolab.epoll.ErrnoException;
import niolab.epoll.Linux;
import niolab.epoll.Sockets;
import niolab.epoll.Syscalls;

/**
 * The loop posture on et: a raw non-blocking fd in the loop's own epoll set, edge-triggered
 * with EPOLLOUT registered once (as et's connections are): the connect's completion and every
 * later room in the send buffer come as EPOLLOUT edges, with no epoll_ctl to arm or disarm them.
 * Every call goes through the loop's own binding ({@code --binding jna|ffm}).
 */
public final class EpollRedisTransport implements RedisTransport {
    /** Adds an fd to the loop's epoll set, its events to come back to the backend; returns 0 or the errno. */
    public interface Watcher {
        int watch(int fd, int events);
    }

    public static final int EVENTS = Linux.EPOLLIN | Linux.EPOLLOUT | Linux.EPOLLRDHUP | Linux.EPOLLET;

    private final Syscalls sys;
    private final Watcher watcher;
    private int fd = -1;
    // The backend's two buffers never change: their native addresses are looked up once (the lookup may allocate).
    private ByteBuffer sendBuffer;
    private long sendAddress;
    private ByteBuffer receiveBuffer;
    private long receiveAddress;

    public EpollRedisTransport(Syscalls sys, Watcher watcher) {
        this.sys = sys;
        this.watcher = watcher;
    }

    @Override
    public boolean connect(InetSocketAddress address) throws IOException {
        fd = Sockets.connect(sys, address);
        int err = watcher.watch(fd, EVENTS);
        if (err != 0) {
            close();
            throw new ErrnoException("epoll_ctl", err, sys);
        }
        return false; // even on loopback, the EPOLLOUT edge says when it is done
    }

    @Override
    public boolean finishConnect() throws IOException {
        int err = Sockets.connectError(sys, fd);
        if (err != 0) throw new ErrnoException("connect", err, sys);
        return true;
    }

    @Override
    public int send(ByteBuffer src) throws IOException {
        if (src != sendBuffer) {
            sendBuffer = src;
            sendAddress = sys.address(src);
        }
        while (true) {
            long w = sys.send(fd, sendAddress + src.position(), src.remaining(), Linux.MSG_NOSIGNAL);
            if (w >= 0) {
                src.position(src.position() + (int) w);
                return (int) w;
            }
            int err = sys.errno();
            if (err == Errno.EAGAIN) return 0;
            if (err != Errno.EINTR) throw new ErrnoException("send", err, sys);
        }
    }

    @Override
    public int receive(ByteBuffer dst) throws IOException {
        if (dst != receiveBuffer) {
            receiveBuffer = dst;
            receiveAddress = sys.address(dst);
        }
        while (true) {
            long n = sys.read(fd, receiveAddress + dst.position(), dst.remaining());
            if (n > 0) {
                dst.position(dst.position() + (int) n);
                return (int) n;
            }
            if (n == 0) return -1;
            int err = sys.errno();
            if (err == Errno.EAGAIN) return 0;
            if (err != Errno.EINTR) throw new ErrnoException("read", err, sys);
        }
    }

    @Override
    public void watchWritable(boolean on) {
        // EPOLLOUT is registered for good: under ET it is reported only when room comes back.
    }

    @Override
    public void close() {
        if (fd >= 0) sys.close(fd); // closing the last reference also leaves the epoll set
        fd = -1;
    }
}
