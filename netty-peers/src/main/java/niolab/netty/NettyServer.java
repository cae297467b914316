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
import niolab.server.Counters;
import niolab.server.EventLoopServer;
import niolab.server.Protocol;
import niolab.server.ServerOptions;
import niolab.server.proto.HttpPing;

/**
 * A Netty 4.2 server as an {@link EventLoopServer}, so {@link niolab.server.ServerRunner} gives
 * it the lab's ready line, signals, counters and one-line errors. One group serves both the
 * listener and the connections: with {@code --threads 1} (the default) it is one thread, like
 * {@code lt} and {@code et}.
 */
final class NettyServer implements EventLoopServer {
    private static final long DRAIN_GRACE_MS = 2000;

    private final ServerOptions options;
    private final Transport transport;
    private final EventLoopGroup group;
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Map<EventLoop, PeerLoop> loops = new ConcurrentHashMap<>();
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private Channel listener;

    NettyServer(ServerOptions options, Transport transport, int threads) {
        this.options = options;
        this.transport = transport;
        this.group = new MultiThreadIoEventLoopGroup(threads, transport.ioHandlerFactory());
    }

    @Override
    public InetSocketAddress bind() throws IOException {
        transport.checkAvailable();
        InetAddress host = InetAddress.getByName(options.host);
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, options.backlog)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true) // half-closed clients still get every answer
                // Reads of up to --buffer-size, and at most that much output waiting per connection.
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(64, 2048, options.bufferSize))
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(Math.max(1, options.bufferSize / 2), Math.max(1, options.bufferSize)))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.add(ch);
                        PeerLoop loop = loops.computeIfAbsent(ch.eventLoop(),
                                l -> new PeerLoop(options.bufferSize, HttpPing.MAX_RESPONSE_BYTES));
                        ch.pipeline().addLast(options.protocol == Protocol.HTTP ? new PingHandler(loop) : new EchoHandler(loop));
                    }
                });
        if (options.reusePort) transport.reusePort(b);
        ChannelFuture bound = b.bind(host, options.port).awaitUninterruptibly();
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
        return transport.command + ", " + options.protocol;
    }
}
