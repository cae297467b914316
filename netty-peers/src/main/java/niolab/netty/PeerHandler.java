package niolab.netty;

import static niolab.server.base.Counter.LINGER_BYTES;
import static niolab.server.base.Counter.LINGER_CLOSES;
import static niolab.server.base.Counter.LINGER_TIMEOUTS;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import java.util.concurrent.TimeUnit;

/**
 * What the peers that speak the lab's own protocols over Netty do around them: write without a
 * promise per buffer, flush once per read batch, stop reading while output waits (as
 * {@code lt} does), and close after the last answer when the client half-closes or the
 * protocol says so. {@link CountingHandler}, ahead of it in the pipeline, keeps the counters.
 *
 * <p>After a closing answer it lingers as the lab's servers do (RFC 9112 9.6), with Netty's
 * own calls: the answer flushed, {@link DuplexChannel#shutdownOutput()}, then reads dropped
 * until the client's end of stream, {@code --linger-bytes}, or a task scheduled on the
 * channel's loop at {@code --linger-time}; then the close.
 */
abstract class PeerHandler extends ChannelInboundHandlerAdapter {
    protected final PeerLoop loop;
    private boolean written;
    private boolean closing;
    private boolean closeScheduled;
    private boolean lingering;
    private long lingerBytes;

    PeerHandler(PeerLoop loop) {
        this.loop = loop;
    }

    /** Handles one read; owns {@code buf} (release it, or pass it on to {@link #send}). */
    protected abstract void onRead(ChannelHandlerContext ctx, ByteBuf buf);

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        if (lingering) {
            lingerBytes += buf.readableBytes();
            loop.counters.add(LINGER_BYTES, buf.readableBytes());
            buf.release();
            if (lingerBytes >= loop.lingerBytes) cutOff(ctx);
            return;
        }
        if (closing) {
            buf.release(); // the answer that closes has been written; what follows is dropped
            return;
        }
        onRead(ctx, buf);
    }

    protected final void send(ChannelHandlerContext ctx, ByteBuf out) {
        ctx.write(out, ctx.voidPromise());
        written = true;
    }

    /** Close once everything written so far has gone out. */
    protected final void closeAfterWrites(ChannelHandlerContext ctx) {
        closing = true;
        ctx.channel().config().setAutoRead(false);
    }

    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) {
        if (written) {
            written = false;
            ctx.flush();
        }
        if (closing && !closeScheduled) {
            closeScheduled = true; // more read-complete events may come before the close is done
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFuture written) -> linger(ctx, written));
        }
    }

    /** The closing answer has gone out: shut the sending side, then drop what comes until EOF or a bound. */
    private void linger(ChannelHandlerContext ctx, ChannelFuture written) {
        if (!written.isSuccess() || !(ctx.channel() instanceof DuplexChannel)) {
            ctx.close();
            return;
        }
        ((DuplexChannel) ctx.channel()).shutdownOutput().addListener((ChannelFuture shut) -> {
            if (!shut.isSuccess()) {
                ctx.close();
                return;
            }
            lingering = true;
            ctx.executor().schedule(() -> cutOff(ctx), loop.lingerNanos, TimeUnit.NANOSECONDS);
            ctx.channel().config().setAutoRead(true);
        });
    }

    /** A bound ended the linger before the client's end of stream. */
    private void cutOff(ChannelHandlerContext ctx) {
        if (!ctx.channel().isOpen()) return;
        loop.counters.inc(LINGER_TIMEOUTS);
        ctx.close();
    }

    @Override
    public final void channelInactive(ChannelHandlerContext ctx) {
        if (lingering) loop.counters.inc(LINGER_CLOSES);
        ctx.fireChannelInactive();
    }

    @Override
    public final void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // Backpressure: while the outbound buffer is over its high-water mark, read nothing.
        if (!closing) ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public final void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent && lingering) {
            ctx.close(); // the client's end of stream: the linger is over
            return;
        }
        if (evt instanceof ChannelInputShutdownEvent) {
            // The client half-closed: everything it sent has been answered, so finish and close.
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // this connection only; the loop serves the others
    }
}
