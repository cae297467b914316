package niolab.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.net.StandardSocketOptions;
import niolab.server.base.ServerRunner;

/**
 * Netty's three Linux transports. {@code nio} runs on the JDK Selector like {@code lt};
 * {@code epoll} calls epoll through JNI, level-triggered since Netty 4.2 removed the
 * edge-triggered mode (netty/netty#14007), so it is a peer of {@code et} in cost (no Selector,
 * no JDK key sets), not in triggering; {@code uring} is completion-based: it queues the
 * accepts, reads and writes themselves on an io_uring and is told when they are done.
 */
enum Transport {
    NIO("netty-nio") {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return NioIoHandler.newFactory();
        }

        @Override
        Class<? extends ServerChannel> serverChannel() {
            return NioServerSocketChannel.class;
        }

        @Override
        void reusePort(ServerBootstrap b) {
            b.option(NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT), true);
        }
    },
    EPOLL("netty-epoll") {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return EpollIoHandler.newFactory();
        }

        @Override
        Class<? extends ServerChannel> serverChannel() {
            return EpollServerSocketChannel.class;
        }

        @Override
        void reusePort(ServerBootstrap b) {
            b.option(EpollChannelOption.SO_REUSEPORT, true);
        }

        @Override
        Throwable unavailabilityCause() {
            return Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
        }
    },
    URING("netty-uring") {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return IoUringIoHandler.newFactory();
        }

        @Override
        Class<? extends ServerChannel> serverChannel() {
            return IoUringServerSocketChannel.class;
        }

        @Override
        void reusePort(ServerBootstrap b) {
            b.option(IoUringChannelOption.SO_REUSEPORT, true);
        }

        @Override
        Throwable unavailabilityCause() {
            return IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
        }
    };

    /** The subcommand and the ready line's name: {@code netty-nio}, {@code netty-epoll}, {@code netty-uring}. */
    final String command;

    Transport(String command) {
        this.command = command;
    }

    abstract IoHandlerFactory ioHandlerFactory();

    abstract Class<? extends ServerChannel> serverChannel();

    abstract void reusePort(ServerBootstrap b);

    /** Why this transport cannot run here (its native part failed to load), or null if it can. */
    Throwable unavailabilityCause() {
        return null;
    }

    /** The name {@code --transport} takes: {@code nio}, {@code epoll} or {@code uring}. */
    @Override
    public String toString() {
        return command.substring("netty-".length());
    }

    /** Why, in one phrase naming the cause, this transport cannot run here; null if it can. */
    String unavailableMessage() {
        Throwable cause = unavailabilityCause();
        return cause == null ? null : command + " cannot run here: " + ServerRunner.describe(cause);
    }
}
