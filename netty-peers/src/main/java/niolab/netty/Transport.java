package niolab.netty;

import java.io.IOException;
import java.net.StandardSocketOptions;
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

/**
 * Netty's two Linux transports. Both are level-triggered: {@code netty-nio} runs on the JDK
 * Selector like {@code lt}, and {@code netty-epoll} calls epoll through JNI, but Netty 4.2
 * removed the epoll transport's edge-triggered mode (netty/netty#14007), so it is a peer of
 * {@code et} in cost (no Selector, no JDK key sets), not in triggering.
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
        void checkAvailable() throws IOException {
            if (!Epoll.isAvailable()) {
                throw new IOException("the native epoll transport is unavailable: " + Epoll.unavailabilityCause().getMessage());
            }
        }
    };

    /** The subcommand and the ready line's name: {@code netty-nio} or {@code netty-epoll}. */
    final String command;

    Transport(String command) {
        this.command = command;
    }

    abstract IoHandlerFactory ioHandlerFactory();

    abstract Class<? extends ServerChannel> serverChannel();

    abstract void reusePort(ServerBootstrap b);

    /** Fails with one readable line if this transport cannot run here. */
    void checkAvailable() throws IOException {
    }
}
