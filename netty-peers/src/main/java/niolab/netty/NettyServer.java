package niolab.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import niolab.server.base.Counters;
import niolab.server.base.Server;
import niolab.server.base.ServerConfig;
import niolab.server.base.ServerRunner;
import niolab.server.proto.HttpPing;

/**
 * A Netty 4.2 server as an {@link Server}, so {@link ServerRunner} gives it the lab's
 * ready line, signals, counters and one-line errors ({@link #serve}). One group serves both the
 * listener and the connections: with {@code --threads 1} (the default) it is one thread, like
 * {@code lt} and {@code et}. Every connection's pipeline starts with a {@link CountingHandler};
 * what follows it depends on the peer ({@link Handlers}).
 */
final class NettyServer implements Server {
    private static final long DRAIN_GRACE_MS = 2000;

    private final ServerConfig config;
    private final Transport transport;
    private final String label;
    private final Handlers handlers;
    private final EventLoopGroup group;
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Map<EventLoop, PeerLoop> loops = new ConcurrentHashMap<>();
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private Channel listener;

    /** What a new connection's pipeline holds after the {@link CountingHandler}: one kind per peer command. */
    @FunctionalInterface
    interface Handlers {
        void addTo(Channel ch, PeerLoop loop);
    }

    /** {@code label} is the ready line's name for this server, e.g. {@code netty-epoll}. */
    NettyServer(ServerConfig config, Transport transport, int threads, String label, Handlers handlers) {
        this.config = config;
        this.transport = transport;
        this.label = label;
        this.handlers = handlers;
        this.group = new MultiThreadIoEventLoopGroup(threads, transport.ioHandlerFactory());
    }

    /** Serves until stopped (the exit code), or says in one line why the transport cannot run here (exit 1). */
    static int serve(ServerConfig config, Transport transport, int threads, String label, Handlers handlers) {
        String unavailable = transport.unavailableMessage();
        if (unavailable != null) {
            System.err.println("error: " + unavailable);
            return 1;
        }
        return ServerRunner.run(new NettyServer(config, transport, threads, label, handlers), config);
    }

    @Override
    public InetSocketAddress bind() throws IOException {
        InetAddress host = InetAddress.getByName(config.host());
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, config.backlog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // Reads of up to --buffer-size, and at most that much output waiting per connection.
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(64, 2048, config.bufferSize()))
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(Math.max(1, config.bufferSize() / 2), Math.max(1, config.bufferSize())))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.add(ch);
                        PeerLoop loop = loops.computeIfAbsent(ch.eventLoop(),
                                l -> new PeerLoop(config, HttpPing.MAX_RESPONSE_BYTES));
                        ch.pipeline().addLast(new CountingHandler(loop.counters));
                        handlers.addTo(ch, loop);
                    }
                });
        if (config.reusePort()) transport.reusePort(b);
        ChannelFuture bound = b.bind(host, config.port()).awaitUninterruptibly();
        if (!bound.isSuccess()) throw bindFailure(bound.cause());
        listener = bound.channel();
        return (InetSocketAddress) listener.localAddress();
    }

    /** Native bind errors are not BindExceptions; make "in use" read as it does for lt. */
    private static IOException bindFailure(Throwable cause) {
        String msg = String.valueOf(cause.getMessage());
        if (msg.contains("in use")) return new BindException("Address already in use");
        if (msg.contains("ermission")) return new BindException("Permission denied");
        return cause instanceof IOException io ? io : new IOException(msg, cause);
    }

    @Override
    public void run() throws IOException {
        try {
            stopRequested.await();
            listener.close().awaitUninterruptibly();
            // Like lt: stop accepting, give open connections a short grace to finish, then close.
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_GRACE_MS);
            while (!connections.isEmpty() && deadline - System.nanoTime() > 0) Thread.sleep(20);
            connections.close().awaitUninterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    @Override
    public void stop() {
        stopRequested.countDown();
    }

    /** The sum over the event loops; like the lab's loops, a reading may lag by an event or two. */
    @Override
    public Counters counters() {
        Counters sum = new Counters(PeerLoop.WAIT_NAME);
        for (PeerLoop l : loops.values()) sum.addAll(l.counters);
        return sum;
    }

    @Override
    public String label() {
        return config.label(label);
    }
}
